// Injection: hostile values rendered into a job script come back from a real shell exactly as
// given (bytes, newlines and all), and text the store cannot hold (non-UTF-8) is refused clearly.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "jobs/JobTemplate.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"

using namespace pbench;

namespace {

const std::vector<std::string> kPayloads = {
    "$(touch canary)", "`touch canary`",         "'\"; touch canary; echo \"'",
    "x\ntouch canary", "; touch canary",         "--",
    "\xff\xfe bytes",  "a\\b 'c' \"d\" $HOME *",
};

/// Runs `script` with bash in a scratch directory; returns its standard output.
std::string run_bash(const std::string& script, const std::filesystem::path& dir) {
  const auto path = dir / "job.sh";
  std::ofstream(path, std::ios::binary) << script;
  const std::string command = "cd '" + dir.string() + "' && bash job.sh";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[256];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  pclose(pipe);
  return out;
}

}  // namespace

TEST_CASE("hostile template values reach the job's command as literal words") {
  std::string pattern = (std::filesystem::temp_directory_path() / "pbench-inject-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  const std::filesystem::path dir = pattern;
  const jobs::JobTemplate job("test", "#!/bin/bash\nprintf '[%s]' {{word}}\n{{command}}\n");
  for (const auto& payload : kPayloads) {
    CAPTURE(payload);
    const std::map<std::string, jobs::TemplateValue> values = {
        {"word", payload},
        {"command", std::vector<std::string>{"printf", "<%s>", payload, "--", payload}}};
    const std::string out = run_bash(job.render(values, {"command"}), dir);
    CHECK(out == "[" + payload + "]<" + payload + "><--><" + payload + ">");
    CHECK_FALSE(std::filesystem::exists(dir / "canary"));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("non-UTF-8 --set values and hint sets are refused with a clear error") {
  std::map<std::string, std::map<std::string, std::string>> settings;
  CHECK_THROWS_WITH_AS(sweep::add_setting(settings, "logp.repetitions=\xff"),
                       "--set logp.repetitions: the value is not valid UTF-8 text", UsageError);
  CHECK(settings.empty());
  CHECK_THROWS_WITH_AS(sweep::validate_hint_set("striping_unit=\xfe"),
                       "--hints: a hint set is not valid UTF-8 text", UsageError);
  // Shell metacharacters are only text: stored as given.
  sweep::add_setting(settings, "logp.repetitions=$(touch canary);`x`");
  CHECK(settings["logp"]["repetitions"] == "$(touch canary);`x`");
}
