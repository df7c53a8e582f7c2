#pragma once
// The SHA-256 of a collected result document, kept in the runs directory beside its envelope:
// result.sha256 in the attempt's directory, in sha256sum's format ("<hex>  result.json"), so
// that `sha256sum -c result.sha256` checks it by hand. Collect writes it when it stores the
// document; a document whose bytes no longer match it was edited after collect, and collect
// (so also `store rebuild`) refuses it, naming it. The store keeps its own hash of the document
// (results.document_hash, of its canonical form): `store verify` compares the two sides.
#include <optional>
#include <string>

namespace pbench::ingest {

class ResultChecksum {
 public:
  static constexpr const char* kFileName = "result.sha256";

  /// result.sha256 beside the document at `result_path`.
  static std::string path_for(const std::string& result_path);
  /// The hash recorded for the document at `result_path`, when there is one that reads as a
  /// SHA-256 (64 hex digits).
  static std::optional<std::string> recorded(const std::string& result_path);
  /// Records the SHA-256 of `bytes` (the document's file as read) for `result_path`, unless a
  /// hash is recorded already (atomically: a temporary file renamed); false when it cannot be
  /// written (the store holds the document and its hash regardless).
  static bool record(const std::string& result_path, const std::string& bytes);
  /// Why the document at `result_path`, read as `bytes`, is not the one collect recorded:
  /// "edited after collect: its SHA-256 is 1a2b3c4d5e6f..., result.sha256 recorded
  /// 9f8e7d6c5b4a... when it was collected"; "" when it is, or when nothing is recorded.
  static std::string edited(const std::string& result_path, const std::string& bytes);
};

}  // namespace pbench::ingest
