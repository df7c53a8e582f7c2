#include "query/ResultValidity.hpp"

#include "query/QueryTable.hpp"

namespace pbench::query {

std::vector<std::string> validity_reasons(const nlohmann::json& document) {
  std::vector<std::string> out;
  if (!document.is_object() || !document.contains("validity")) return out;
  const auto& validity = document["validity"];
  if (!validity.is_object() || !validity.contains("reasons") || !validity["reasons"].is_array()) {
    return out;
  }
  for (const auto& reason : validity["reasons"]) {
    if (reason.is_string()) out.push_back(reason.get<std::string>());
  }
  return out;
}

std::vector<std::string> validity_reasons(const nlohmann::json& document,
                                          const std::optional<std::string>& placement,
                                          const std::optional<std::string>& ingest_reason) {
  auto out = validity_reasons(document);
  if (ingest_reason && !ingest_reason->empty()) out.insert(out.begin(), *ingest_reason);
  if (placement && !placement->empty()) out.insert(out.begin(), *placement);
  return out;
}

std::vector<std::string> validity_reasons(store::Store& store, std::int64_t result_id) {
  auto s =
      store.db().prepare("SELECT head, placement, ingest_reason FROM results WHERE id = ?1");
  s.bind(1, result_id);
  if (!s.step()) return {};
  return validity_reasons(nlohmann::json::parse(s.text(0), nullptr, false), s.optional_text(1),
                          s.optional_text(2));
}

std::string not_valid_mark(const std::vector<std::string>& reasons) {
  return reasons.empty() ? "(not valid)" : "(not valid: " + reason_cell(reasons.front()) + ")";
}

}  // namespace pbench::query
