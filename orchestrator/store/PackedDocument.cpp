#include "store/PackedDocument.hpp"

#include <zstd.h>

#include "util/Error.hpp"

namespace pbench::store {
namespace {

/// SQL document(packed): unpack_document on a blob.
void document_function(sqlite3_context* context, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(context);
    return;
  }
  const auto* bytes = static_cast<const char*>(sqlite3_value_blob(argv[0]));
  const auto size = static_cast<std::size_t>(sqlite3_value_bytes(argv[0]));
  try {
    const std::string text = unpack_document(std::string_view(bytes ? bytes : "", size));
    sqlite3_result_text64(context, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  } catch (const StoreError& e) {
    sqlite3_result_error(context, e.what(), -1);
  }
}

}  // namespace

std::string document_head(const nlohmann::json& doc) {
  nlohmann::json head = doc;
  if (head.is_object()) {
    head.erase("measurements");
    head.erase("summary");
  }
  return head.dump();
}

PackedDocument pack_document(const nlohmann::json& doc, const std::string& canonical) {
  std::string packed(ZSTD_compressBound(canonical.size()), '\0');
  const std::size_t size = ZSTD_compress(packed.data(), packed.size(), canonical.data(),
                                         canonical.size(), kDocumentLevel);
  if (ZSTD_isError(size)) {
    throw StoreError(std::string("cannot compress a result document: zstd: ") +
                     ZSTD_getErrorName(size));
  }
  packed.resize(size);
  return {document_head(doc), std::move(packed)};
}

std::string unpack_document(std::string_view packed) {
  const unsigned long long size = ZSTD_getFrameContentSize(packed.data(), packed.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) {
    throw StoreError("a stored result document is damaged: not a zstd frame of known size");
  }
  std::string text(size, '\0');
  const std::size_t got = ZSTD_decompress(text.data(), text.size(), packed.data(), packed.size());
  if (ZSTD_isError(got)) {
    throw StoreError(std::string("a stored result document is damaged: zstd: ") +
                     ZSTD_getErrorName(got));
  }
  if (got != size) {
    throw StoreError("a stored result document is damaged: " + std::to_string(got) +
                     " bytes decompressed, its frame says " + std::to_string(size));
  }
  return text;
}

void register_document_function(sqlite3* db) {
  sqlite3_create_function(db, "document", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                          document_function, nullptr, nullptr);
}

}  // namespace pbench::store
