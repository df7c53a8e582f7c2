#pragma once
// Why a stored result is not valid, as its worker said it (the document's validity.reasons), for
// the queries that show a not valid figure: the first reason in a table, all of them in notes
// (and so in --format json).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/Store.hpp"

namespace pbench::query {

/// The reasons of a result document (empty when it has none or is not a document).
std::vector<std::string> validity_reasons(const nlohmann::json& document);
/// The reasons of a stored result: its placement reason (the store's placement column: the
/// ranks did not run in the shape asked for) first, then ingest's (ingest_reason: a figure that
/// cannot be), then its document's.
std::vector<std::string> validity_reasons(const nlohmann::json& document,
                                          const std::optional<std::string>& placement,
                                          const std::optional<std::string>& ingest_reason = {});
/// The reasons of stored result `result_id`, placement and ingest's first (empty when there is
/// no such result).
std::vector<std::string> validity_reasons(store::Store& store, std::int64_t result_id);
/// How a headline marks a figure from a result that is not valid: "(not valid: <first reason>)"
/// (an oversubscription in a word: reason_cell()), or "(not valid)" when it gives no reason.
std::string not_valid_mark(const std::vector<std::string>& reasons);

}  // namespace pbench::query
