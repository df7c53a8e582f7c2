#include "cli/HeadlineSelection.hpp"

#include "cli/SweepOptions.hpp"

namespace pbench::cli {

void HeadlineSelection::declare(CLI::App& command, const std::string& where_help) {
  command.add_option("--where", where, where_help);
  command.add_option("--envs", envs,
                     "Only these environments of a sweep made with --envs (comma-separated)");
}

std::vector<query::WhereClause> HeadlineSelection::clauses() const {
  return query::parse_where(where);
}

std::vector<std::string> HeadlineSelection::env_names() const {
  return envs.empty() ? std::vector<std::string>{} : parse_env_list(envs);
}

}  // namespace pbench::cli
