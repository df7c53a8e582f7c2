#include "report/EnvironmentLabels.hpp"

#include <vector>

namespace pbench::report {

EnvironmentLabels EnvironmentLabels::read(store::Store& store, const std::string& sweep) {
  // env -> the libraries with their versions, in the order first seen.
  std::map<std::string, std::vector<std::string>> libraries;
  auto s = store.db().prepare(
      "SELECT json_extract(p.params_json, '$.env'), json_extract(r.head, '$.mpi.library'), "
      "json_extract(r.head, '$.mpi.version'), "
      "json_extract(r.head, '$.mpi_library_version') "
      "FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "LEFT JOIN results r ON r.id = " +
      std::string(store::kChosenResult) +
      " WHERE sw.name = ?1 AND json_type(p.params_json, '$.env') = 'text' ORDER BY p.id");
  s.bind(1, sweep);
  while (s.step()) {
    auto& known = libraries[s.text(0)];
    std::string library;
    if (const auto name = s.optional_text(1)) {
      library = *name;
      if (const auto version = s.optional_text(2); version && !version->empty())
        library += " " + *version;
    } else if (const auto text = s.optional_text(3)) {
      library = text->substr(0, text->find('\n'));
      while (!library.empty() && (library.back() == ' ' || library.back() == '\r'))
        library.pop_back();
    }
    if (library.empty()) continue;
    bool seen = false;
    for (const auto& l : known) seen = seen || l == library;
    if (!seen) known.push_back(library);
  }
  std::map<std::string, std::string> labels;
  for (const auto& [env, list] : libraries) {
    std::string joined;
    for (const auto& l : list) joined += (joined.empty() ? "" : " / ") + l;
    labels[env] = joined.empty() ? env : env + " (" + joined + ")";
  }
  return EnvironmentLabels(std::move(labels));
}

std::string EnvironmentLabels::label(const std::string& env) const {
  if (env.empty()) return "";
  const auto it = labels_.find(env);
  return it == labels_.end() ? env : it->second;
}

std::string EnvironmentLabels::with(const std::string& title, const std::string& env) const {
  if (env.empty()) return title;
  return title + ", " + label(env);
}

int EnvironmentLabels::index(const std::string& env) const {
  int i = 0;
  for (const auto& [name, text] : labels_) {
    if (name == env) return i;
    ++i;
  }
  return 0;
}

}  // namespace pbench::report
