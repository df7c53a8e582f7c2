#pragma once
// A result document as the store keeps it (schema version 11): its canonical text compressed
// with zstd (results.packed), and its head (results.head), the document without its two large
// members, `measurements` and `summary` (the metric rows hold the summary), as JSON text that
// the views and any SQLite client read with json_extract. Every read of a whole document goes
// through unpack_document: in C++ (Store::document) or in SQL, where every connection pbench
// opens has the function document(packed).
#include <sqlite3.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace pbench::store {

struct PackedDocument {
  std::string head;    ///< JSON text: the document without measurements and summary
  std::string packed;  ///< one zstd frame of the canonical text
};

/// The zstd level documents are compressed at (bench/README.md, "The store at a decade": the
/// level measured against size and ingest speed).
inline constexpr int kDocumentLevel = 9;

/// Packs a document: `canonical` is its canonical text (what its SHA-256 is of), `doc` the same
/// document parsed.
PackedDocument pack_document(const nlohmann::json& doc, const std::string& canonical);
/// The head of a document (what results.head holds).
std::string document_head(const nlohmann::json& doc);
/// The canonical text back, byte for byte; throws StoreError when `packed` is no zstd frame
/// or does not decompress whole (a damaged document).
std::string unpack_document(std::string_view packed);
/// Makes the SQL function document(packed) on `db`: the canonical text of a packed document
/// (NULL for NULL; an error for a damaged one).
void register_document_function(sqlite3* db);

}  // namespace pbench::store
