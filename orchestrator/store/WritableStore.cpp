#include "store/WritableStore.hpp"

#include <unistd.h>

#include <filesystem>

#include "util/Error.hpp"

namespace pbench::store {

std::string cannot_write_store_message(const std::string& path) {
  return "cannot write store '" + path +
         "' (read-only directory or file): choose another with --db";
}

bool store_writable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path file = fs::absolute(path, ec);
  if (ec) return true;  // SQLite names the problem when it opens the file
  const fs::path dir = file.parent_path();
  // access() answers for this user, and says EROFS for a read-only file system even to root.
  const bool file_ok = ::access(file.c_str(), F_OK) != 0 || ::access(file.c_str(), W_OK) == 0;
  const bool dir_ok = ::access(dir.c_str(), F_OK) != 0 || ::access(dir.c_str(), W_OK) == 0;
  return file_ok && dir_ok;
}

void require_writable_store(const std::string& path) {
  if (!store_writable(path)) {
    std::error_code ec;
    const auto file = std::filesystem::absolute(path, ec);
    throw StoreError(cannot_write_store_message(ec ? path : file.string()));
  }
}

}  // namespace pbench::store
