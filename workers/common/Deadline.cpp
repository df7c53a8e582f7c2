#include "common/Deadline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "common/Units.hpp"

namespace pbench::worker {

double epoch_now() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

std::string epoch_text(double epoch_seconds) {
  const std::time_t t = static_cast<std::time_t>(std::floor(epoch_seconds));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

double Deadline::default_margin(double time_left) {
  return std::clamp(0.1 * time_left, 1.0, 60.0);
}

Deadline::Deadline(double end, double margin) : end_(end), margin_(margin) {}

std::optional<Deadline> Deadline::from(std::optional<double> deadline,
                                       std::optional<double> time_left, double margin, double now,
                                       std::string& problem) {
  if (deadline && !(*deadline > now)) {
    char epoch[32];
    std::snprintf(epoch, sizeof(epoch), "%.0f", *deadline);
    problem = "--deadline (PBENCH_DEADLINE) " + std::string(epoch) + " = " + epoch_text(*deadline) +
              " is not in the future (now " + epoch_text(now) + "): the job's time is over";
    return std::nullopt;
  }
  if (time_left && !(*time_left > 0)) {
    problem = "--time-left must be more than 0 seconds, got " + units::short_number(*time_left, 3);
    return std::nullopt;
  }
  if (!std::isfinite(margin)) {
    problem = "--deadline-margin must be a number of seconds";
    return std::nullopt;
  }
  if (!deadline && !time_left) return Deadline();
  double end = deadline ? *deadline : now + *time_left;
  if (deadline && time_left) end = std::min(end, now + *time_left);
  const double left = end - now;
  const double kept = margin < 0 ? default_margin(left) : margin;
  if (kept >= left) {
    problem = "--deadline-margin " + units::short_number(kept, 3) +
              " s leaves no time before the deadline " + epoch_text(end) + " (" +
              units::short_number(left, 3) + " s left)";
    return std::nullopt;
  }
  return Deadline(end, kept);
}

bool Deadline::stop_before(double now, double step) const {
  if (!end_) return false;
  return now + std::max(step, 0.0) > stop_by();
}

std::string Deadline::reason(const std::string& where) const {
  return "partial: stopped before the deadline " + epoch_text(end()) + " (keeping " +
         units::short_number(margin_, 3) + " s to write the result), at " + where +
         "; what follows was not measured";
}

DeadlineDecision::DeadlineDecision(const Deadline& deadline, std::function<double()> clock)
    : deadline_(deadline), clock_(std::move(clock)) {}

bool DeadlineDecision::stop_here() {
  if (stopped_) return true;
  if (!deadline_.set()) return false;
  const double now = clock_();
  if (last_) longest_ = std::max(longest_, now - *last_);
  last_ = now;
  stopped_ = deadline_.stop_before(now, longest_);
  return stopped_;
}

DeadlineWatch::DeadlineWatch(const Deadline& deadline) : deadline_(deadline), decision_(deadline) {}

bool DeadlineWatch::reached(MPI_Comm comm, const std::string& where) {
  if (stopped_) return true;
  if (!deadline_.set()) return false;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int stop = 0;
  if (rank == 0) stop = decision_.stop_here() ? 1 : 0;
  MPI_Bcast(&stop, 1, MPI_INT, 0, comm);
  if (stop) {
    stopped_ = true;
    where_ = where;
  }
  return stopped_;
}

}  // namespace pbench::worker
