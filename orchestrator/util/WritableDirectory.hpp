#pragma once
// A directory pbench or its jobs are about to write in, checked by writing: a full file system
// (ENOSPC), a read-only one (EROFS) or a directory the user may not write (EACCES) is named with
// its path and the system's reason before a job is started there, instead of a job that never
// starts ("no job.pid") or one that ends without an exit marker.
#include <filesystem>

namespace pbench {

/// Creates `dir` if needed and writes (then removes) a small file in it; throws
/// std::runtime_error "cannot write in the runs directory 'DIR': No space left on device ..."
/// when it cannot.
void require_writable_directory(const std::filesystem::path& dir);

}  // namespace pbench
