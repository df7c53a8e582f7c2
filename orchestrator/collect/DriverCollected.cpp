#include "collect/DriverCollected.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

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

/// The counts the file keeps, by their key in it: written and read from this one list.
constexpr std::pair<const char*, int CollectReport::*> kCounts[] = {
    {"stored", &CollectReport::stored},
    {"duplicates", &CollectReport::duplicates},
    {"rejected", &CollectReport::rejected},
    {"deadline_partial", &CollectReport::deadline_partial},
    {"mislaunched", &CollectReport::mislaunched},
    {"impossible", &CollectReport::impossible},
    {"not_its_point", &CollectReport::not_its_point},
    {"breaks_rules", &CollectReport::breaks_rules}};

nlohmann::json to_json(const CollectReport& r) {
  nlohmann::json j = {{"messages", r.messages}};
  for (const auto& [key, count] : kCounts) j[key] = r.*count;
  return j;
}

CollectReport from_json(const nlohmann::json& j) {
  CollectReport r;
  for (const auto& [key, count] : kCounts) r.*count = j.value(key, 0);
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
