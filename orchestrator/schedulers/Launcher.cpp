#include "schedulers/Launcher.hpp"

#include <signal.h>
#include <string.h>

#include <map>
#include <sstream>

#include "util/Error.hpp"
#include "util/NamedEntry.hpp"

namespace pbench::schedulers {
namespace {

struct LauncherEntry {
  const char* name;
  const char* program;             ///< the program called unless the spec names another
  std::vector<const char*> words;  ///< after the program: {n}, {pmi}, {nodes}, {ppn} filled in
  const char* what;                ///< for messages
};

// Every launcher pbench knows, in one table.
const LauncherEntry kLaunchers[] = {
    {"mpiexec", "mpiexec", {"-n", "{n}"}, "MPICH's Hydra (mpiexec.hydra) or any mpiexec"},
    {"mpirun", "mpirun", {"-np", "{n}"}, "Open MPI's mpirun (mpirun.openmpi)"},
    // -K: a rank that dies ends the step; without it the others wait for it until the job's
    // time limit. --mpi: the PMI the MPI library speaks (pmi2 for MPICH, pmix for Open MPI);
    // the wrong one starts N singletons.
    {"srun",
     "srun",
     {"--mpi={pmi}", "-n", "{n}", "--kill-on-bad-exit=1"},
     "Slurm's srun with the PMI plugin of the profile"},
    {"custom", "", {}, "a launch line of the profile with {n}, {nodes}, {ppn}"},
};

const LauncherEntry& find_launcher(const std::string& name) {
  return named_entry(kLaunchers, name, "launcher");
}

// {n}, {pmi}, {nodes}, {ppn} in `word`; throws UsageError for another {name}.
std::string fill(std::string word, const std::map<std::string, std::string>& values,
                 const std::string& where) {
  std::string out;
  for (std::size_t at = 0; at < word.size();) {
    const auto open = word.find('{', at);
    if (open == std::string::npos) {
      out += word.substr(at);
      break;
    }
    const auto close = word.find('}', open);
    if (close == std::string::npos) throw UsageError(where + ": '{' without '}' in '" + word + "'");
    const std::string key = word.substr(open + 1, close - open - 1);
    const auto it = values.find(key);
    if (it == values.end()) {
      throw UsageError(where + ": unknown placeholder {" + key + "} in '" + word +
                       "' (known: {n}, {nodes}, {ppn})");
    }
    out += word.substr(at, open - at) + it->second;
    at = close + 1;
  }
  return out;
}

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The launch line of `spec` with its placeholders filled from `values`, then the worker.
std::vector<std::string> launch_words(const LaunchSpec& spec,
                                      const std::map<std::string, std::string>& values,
                                      const std::vector<std::string>& worker_argv) {
  const LauncherEntry& entry = find_launcher(spec.name);
  const std::string where = "launcher " + spec.name;
  std::vector<std::string> command;
  if (spec.name == "custom") {
    for (const auto& word : split_words(spec.line)) {
      const std::string filled = fill(word, values, where);
      if (!filled.empty()) command.push_back(filled);
    }
  } else {
    command.push_back(spec.program.empty() ? entry.program : spec.program);
    for (const char* word : entry.words) command.push_back(fill(word, values, where));
  }
  for (const auto& arg : spec.args) command.push_back(fill(arg, values, where));
  command.insert(command.end(), worker_argv.begin(), worker_argv.end());
  return command;
}

std::optional<std::string> signal_abbreviation(int number) {
  if (number <= 0 || number >= NSIG) return std::nullopt;
  const char* name = ::sigabbrev_np(number);
  return name ? std::optional<std::string>(name) : std::nullopt;
}

// "Killed" or "Segmentation fault (core dumped)": the signal whose description it is.
std::optional<std::string> signal_described(std::string text) {
  const std::string core = " (core dumped)";
  if (text.size() > core.size() && text.compare(text.size() - core.size(), core.size(), core) == 0)
    text.erase(text.size() - core.size());
  for (int number = 1; number < NSIG; ++number) {
    const char* description = ::sigdescr_np(number);
    if (description && text == description) return signal_abbreviation(number);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> launcher_reported_signal(const std::string& output) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // Hydra: "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)".
    const std::string hydra = "TERMINATED WITH THE EXIT STRING: ";
    if (const auto at = line.find(hydra); at != std::string::npos) {
      const auto open = line.rfind("(signal ");
      if (open != std::string::npos && open > at) {
        try {
          if (auto name = signal_abbreviation(std::stoi(line.substr(open + 8)))) return name;
        } catch (const std::exception&) {
          // Not a number: not the report this looks for.
        }
      }
      continue;
    }
    // srun: "srun: error: HOST: task 0: Killed" or "... tasks 0-3: Segmentation fault".
    if (line.rfind("srun: error: ", 0) == 0 &&
        (line.find(": task ") != std::string::npos || line.find(": tasks ") != std::string::npos)) {
      const auto colon = line.rfind(": ");
      if (auto name = signal_described(line.substr(colon + 2))) return name;
    }
  }
  return std::nullopt;
}

nlohmann::json LaunchSpec::to_json() const {
  if (program.empty() && args.empty() && pmi.empty() && line.empty()) return name;
  nlohmann::json j = {{"name", name}};
  if (!program.empty()) j["program"] = program;
  if (!args.empty()) j["args"] = args;
  if (!pmi.empty()) j["pmi"] = pmi;
  if (!line.empty()) j["line"] = line;
  return j;
}

LaunchSpec LaunchSpec::from_json(const nlohmann::json& j) {
  LaunchSpec spec;
  if (j.is_string()) {
    spec.name = j.get<std::string>();
    return spec;
  }
  spec.name = j.at("name").get<std::string>();
  spec.program = j.value("program", "");
  spec.args = j.value("args", std::vector<std::string>{});
  spec.pmi = j.value("pmi", "");
  spec.line = j.value("line", "");
  return spec;
}

void LaunchSpec::validate() const {
  find_launcher(name);
  const std::string where = "launcher " + name;
  if (name == "custom") {
    if (line.empty()) throw UsageError(where + ": give its launch line (line = \"... {n} ...\")");
    if (line.find("{n}") == std::string::npos) {
      throw UsageError(where + ": the launch line '" + line +
                       "' has no {n} (the number of processes)");
    }
    if (!program.empty()) throw UsageError(where + ": program is part of the line");
  } else if (!line.empty()) {
    throw UsageError(where + ": a launch line is for the launcher 'custom'");
  }
  if (!pmi.empty() && name != "srun") {
    throw UsageError(where + ": pmi is srun's (--mpi=PMI); " + name + " takes none");
  }
  if (!pmi.empty() &&
      pmi.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") != std::string::npos) {
    throw UsageError(where + ": pmi '" + pmi + "' is not a PMI plugin name (srun --mpi=list)");
  }
  for (const auto& text : args) {
    if (text.empty() || text.find('\0') != std::string::npos ||
        text.find('\n') != std::string::npos)
      throw UsageError(where + ": an empty argument, or one with a newline or NUL");
  }
  // The custom line's placeholders are checked by filling them once.
  (void)launch_command(*this, 1, 1, 1, {});
}

std::vector<std::string> launch_command(const LaunchSpec& spec, int nprocs, int nodes,
                                        int procs_per_node,
                                        const std::vector<std::string>& worker_argv) {
  return launch_words(spec,
                      {{"n", std::to_string(nprocs)},
                       {"pmi", spec.pmi.empty() ? "pmi2" : spec.pmi},
                       {"nodes", nodes > 0 ? std::to_string(nodes) : ""},
                       {"ppn", procs_per_node > 0 ? std::to_string(procs_per_node) : ""}},
                      worker_argv);
}

std::vector<std::string> launch_command(const std::string& name, int nprocs,
                                        const std::vector<std::string>& worker_argv) {
  LaunchSpec spec;
  spec.name = name;
  return launch_command(spec, nprocs, 0, 0, worker_argv);
}

std::string launch_flags(const LaunchSpec& spec) {
  std::string flags;
  for (const auto& arg : spec.args) flags += (flags.empty() ? "" : " ") + arg;
  return flags;
}

std::string LaunchSpec::describe() const {
  std::string text;
  const std::map<std::string, std::string> shown = {
      {"n", "{n}"}, {"pmi", pmi.empty() ? "pmi2" : pmi}, {"nodes", "{nodes}"}, {"ppn", "{ppn}"}};
  for (const auto& word : launch_words(*this, shown, {})) text += (text.empty() ? "" : " ") + word;
  return text;
}

std::vector<std::string> launcher_names() {
  std::vector<std::string> names;
  for (const auto& entry : kLaunchers) names.emplace_back(entry.name);
  return names;
}

}  // namespace pbench::schedulers
