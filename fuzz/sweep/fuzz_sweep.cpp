// libFuzzer target: a sweep specification as a user gives it, in one of two forms.
//   - A sweep file (TOML, `pbench sweep NAME --spec FILE`): the input is the file's text.
//   - Command-line options: the input starts with the line "pbench sweep"; each further line is
//     one argument (cut at a NUL byte, as an argv entry would be), parsed by the same CLI11
//     options `pbench sweep` declares (list parsers, --set, --hints, --time-limit, ...).
// Either way the specification is validated and, when its grid is small, expanded into points
// with their worker arguments. Besides crashes, leaks and hangs it fails (abort) when a valid
// specification does not survive its JSON round trip (what the store keeps) or expands
// differently twice.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "cli/SweepOptions.hpp"
#include "sweep/SweepFile.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"

namespace {

using pbench::sweep::SweepSpec;

constexpr std::string_view kArgumentsHeader = "pbench sweep\n";
/// Grids up to this many points are expanded (a bigger one is a user's choice, not a bug).
constexpr std::size_t kMostPointsExpanded = 4096;

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "fuzz_sweep: %s\n", what);
  std::abort();
}

SweepSpec spec_from_arguments(std::string_view text) {
  std::vector<std::string> args{"sweep"};
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    args.emplace_back(line.substr(0, line.find('\0')));
    start = end + 1;
  }
  CLI::App app("fuzz");
  pbench::cli::SweepOptions options;
  options.declare(app);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
    throw pbench::UsageError("refused by the option parser");
  }
  // A sweep file named on the command line is the other form of this target: not read here.
  if (!options.spec_path.empty()) throw pbench::UsageError("--spec");
  return options.spec();
}

std::size_t grid_size(const SweepSpec& spec) {
  const auto at_least_one = [](std::size_t n) { return n == 0 ? std::size_t{1} : n; };
  std::size_t size = spec.workers.size() * spec.partitions.size();
  for (std::size_t factor :
       {spec.values("queue_depth").size(), at_least_one(spec.values("schedule_time").size()),
        at_least_one(spec.values("hints").size())}) {
    if (factor != 0 && size > kMostPointsExpanded / factor) return kMostPointsExpanded + 1;
    size *= factor;
  }
  return size;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  SweepSpec spec;
  try {
    if (text.substr(0, kArgumentsHeader.size()) == kArgumentsHeader) {
      spec = spec_from_arguments(text.substr(kArgumentsHeader.size()));
    } else {
      spec = pbench::sweep::parse_sweep_file(text, "fuzz.toml", "fuzz");
    }
    spec.validate();
  } catch (const pbench::UsageError&) {
    return 0;
  }
  const nlohmann::json stored = spec.to_json();
  const SweepSpec restored = SweepSpec::from_json(nlohmann::json::parse(stored.dump()));
  if (restored.to_json() != stored) broken("the specification changed in its JSON round trip");
  if (grid_size(spec) > kMostPointsExpanded) return 0;
  const auto points = pbench::sweep::expand(spec);
  const auto again = pbench::sweep::expand(restored);
  if (points.size() != again.size()) broken("the restored specification expands differently");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].key != again[i].key) broken("a point key changed in the JSON round trip");
    (void)pbench::sweep::worker_arguments(points[i]);
  }
  return 0;
}
