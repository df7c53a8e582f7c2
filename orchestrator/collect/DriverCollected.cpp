#include "collect/DriverCollected.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace pbench::run {
namespace {

constexpr const char* kFile = "driver-collected.json";
constexpr const char* kLock = "driver-collected.lock";

/// An exclusive flock on the sweep's driver-collected.lock for the life of the object.
class CollectedLock {
 public:
  explicit CollectedLock(const std::filesystem::path& sweep_dir)
      : fd_(::open((sweep_dir / kLock).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~CollectedLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  CollectedLock(const CollectedLock&) = delete;
  CollectedLock& operator=(const CollectedLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_;
};

nlohmann::json to_json(const CollectReport& r) {
  return {{"stored", r.stored},
          {"duplicates", r.duplicates},
          {"rejected", r.rejected},
          {"deadline_partial", r.deadline_partial},
          {"mislaunched", r.mislaunched},
          {"impossible", r.impossible},
          {"not_its_point", r.not_its_point},
          {"breaks_rules", r.breaks_rules},
          {"messages", r.messages}};
}

CollectReport from_json(const nlohmann::json& j) {
  CollectReport r;
  r.stored = j.value("stored", 0);
  r.duplicates = j.value("duplicates", 0);
  r.rejected = j.value("rejected", 0);
  r.deadline_partial = j.value("deadline_partial", 0);
  r.mislaunched = j.value("mislaunched", 0);
  r.impossible = j.value("impossible", 0);
  r.not_its_point = j.value("not_its_point", 0);
  r.breaks_rules = j.value("breaks_rules", 0);
  r.messages = j.value("messages", std::vector<std::string>{});
  return r;
}

/// The file's report; an empty one when there is none.
CollectReport read_collected(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return from_json(nlohmann::json::parse(text.str()));
}

}  // namespace

bool add_driver_collected(const std::filesystem::path& sweep_dir, const CollectReport& report) {
  CollectedLock lock(sweep_dir);
  if (!lock.held()) return false;
  // The newest report with the kept one merged in front of it (run::merge_reports, the sum a
  // driver keeps in memory): the kept messages first.
  CollectReport sum = report;
  try {
    merge_reports(sum, read_collected(sweep_dir / kFile));
  } catch (const std::exception&) {
    // A torn file (a full disk): its counts are lost, the results are stored.
  }
  const auto temporary = sweep_dir / (std::string(kFile) + ".tmp");
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << to_json(sum).dump() << "\n";
    if (!out.flush()) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, sweep_dir / kFile, ec);
  return !ec;
}

CollectReport take_driver_collected(const std::filesystem::path& sweep_dir) {
  const auto file = sweep_dir / kFile;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return {};
  CollectedLock lock(sweep_dir);
  CollectReport report;
  try {
    report = read_collected(file);
  } catch (const std::exception& e) {
    report.messages.push_back("what the background driver collected could not be read (" +
                              file.string() + ": " + e.what() +
                              "); its results are stored, their count is not in this line");
  }
  std::filesystem::remove(file, ec);
  return report;
}

}  // namespace pbench::run
