// The orchestrator's folders are layers (orchestrator/layers.txt, lowest first): a file includes
// from its own folder and from the folders of lower layers only, so that each arrow of the data
// flow points one way. Every #include "folder/..." of orchestrator/**/*.{hpp,cpp} is checked.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The layer of each folder a layers file names: the number of its line among those that name
// folders ('#' starts a comment).
std::map<std::string, int> read_layers(const fs::path& file) {
  std::ifstream in(file);
  REQUIRE_MESSAGE(in, "cannot read " << file);
  std::map<std::string, int> layer_of;
  int layer = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line.substr(0, line.find('#')));
    bool named = false;
    for (std::string folder; words >> folder; named = true) {
      CHECK_MESSAGE(layer_of.count(folder) == 0, folder << " is named twice in " << file);
      layer_of[folder] = layer;
    }
    if (named) ++layer;
  }
  return layer_of;
}

// What is wrong with the includes of the sources under `root` for the layers of `layers`, in
// order: a folder the layers do not place (or place but that does not exist), and every include
// of a folder of the same or a higher layer than the including file's own, with file and line.
std::vector<std::string> layering_faults(const fs::path& root, const fs::path& layers) {
  const auto layer_of = read_layers(layers);
  const std::string layers_name = layers.filename().string();
  std::vector<std::string> faults;
  for (const auto& entry : fs::directory_iterator(root)) {
    const std::string folder = entry.path().filename().string();
    if (entry.is_directory() && !layer_of.count(folder)) {
      faults.push_back(folder + "/: a folder that " + layers_name + " does not place in a layer");
    }
  }
  for (const auto& [folder, layer] : layer_of) {
    if (!fs::is_directory(root / folder)) {
      faults.push_back(folder + "/: in " + layers_name + " but not a folder");
    }
  }
  static const std::regex include_line(R"(^\s*#\s*include\s*"([A-Za-z0-9_]+)/[^"]*")");
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const auto extension = entry.path().extension();
    if (!entry.is_regular_file() || (extension != ".hpp" && extension != ".cpp")) continue;
    const fs::path relative = entry.path().lexically_relative(root);
    const std::string own = relative.begin()->string();
    if (!layer_of.count(own)) continue;  // its folder is named above
    std::ifstream in(entry.path());
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_no;
      std::smatch m;
      if (!std::regex_search(line, m, include_line)) continue;
      const std::string used = m[1];
      // Another library's folder (the workers' common/, io/), or the file's own.
      if (!layer_of.count(used) || used == own) continue;
      if (layer_of.at(used) >= layer_of.at(own)) {
        const bool sideways = layer_of.at(used) == layer_of.at(own);
        faults.push_back(relative.string() + ":" + std::to_string(line_no) + ": " + line +
                         " points " + (sideways ? "sideways" : "up") + ": " + used +
                         "/ is not below " + own + "/");
      }
    }
  }
  std::sort(faults.begin(), faults.end());
  return faults;
}

}  // namespace

TEST_CASE("every include of the orchestrator points down its layers (orchestrator/layers.txt)") {
  const fs::path root = fs::path(PBENCH_SOURCE_DIR) / "orchestrator";
  for (const auto& fault : layering_faults(root, root / "layers.txt")) FAIL_CHECK(fault);
}

TEST_CASE("the layering check names an upward and a sideways include and an unplaced folder") {
  const fs::path dir =
      fs::temp_directory_path() / ("pbench-layers-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  for (const char* folder : {"low", "mid", "peer", "top", "new"}) {
    fs::create_directories(dir / folder);
  }
  std::ofstream(dir / "layers.txt") << "# lowest first\nlow\nmid peer  # one layer\ntop\n";
  std::ofstream(dir / "low" / "A.hpp") << "#include <vector>\n#include \"common/Units.hpp\"\n";
  std::ofstream(dir / "mid" / "B.cpp")
      << "#include \"mid/B.hpp\"\n#include \"low/A.hpp\"\n#include \"peer/C.hpp\"\n";
  std::ofstream(dir / "top" / "D.cpp") << "#include \"mid/B.hpp\"\n#include \"low/A.hpp\"\n";
  std::ofstream(dir / "low" / "E.cpp") << "// a low file\n  #  include \"top/D.hpp\"\n";
  CHECK(layering_faults(dir, dir / "layers.txt") ==
        std::vector<std::string>{
            "low/E.cpp:2:   #  include \"top/D.hpp\" points up: top/ is not below low/",
            "mid/B.cpp:3: #include \"peer/C.hpp\" points sideways: peer/ is not below mid/",
            "new/: a folder that layers.txt does not place in a layer"});
  fs::remove_all(dir);
}
