#include "io/TimePlan.hpp"

#include <algorithm>

namespace pbench::io {

const char* time_part_name(TimePart part) {
  switch (part) {
    case TimePart::setup:
      return "setup";
    case TimePart::deletion_probe:
      return "deletion_probe";
    case TimePart::opens:
      return "opens";
    case TimePart::patterns:
      return "patterns";
    case TimePart::closes:
      return "closes";
    case TimePart::deletion:
      return "deletion";
    case TimePart::bookkeeping:
      return "bookkeeping";
    case TimePart::removal:
      return "removal";
  }
  return "unknown";
}

void TimeAccount::mark(TimePart part, double now) {
  seconds_[index(part)] += now - last_;
  ++counts_[index(part)];
  last_ = now;
}

double TimeAccount::total() const {
  return last_ - start_;
}

TimePlan::TimePlan(const Schedule& schedule, int rows, PlanUnits units, int files, bool deleting)
    : schedule_(schedule),
      rows_(rows),
      rows_left_(rows),
      units_left_{units.timed, units.sized, units.rewrite, units.read},
      files_(files),
      deleting_(deleting) {}

void TimePlan::probed_read(double write_seconds, double read_seconds) {
  probe_write_seconds_ = write_seconds;
  probe_read_seconds_ = read_seconds;
}

void TimePlan::probed_deletion(double bytes, double seconds) {
  probe_bytes_ += bytes;
  probe_seconds_ += seconds;
}

void TimePlan::opened(double seconds) {
  ++opens_;
  open_seconds_ += seconds;
}

void TimePlan::closed(double seconds) {
  ++closes_;
  close_seconds_ += seconds;
}

void TimePlan::deleted(double bytes, double seconds) {
  deleted_bytes_ += bytes;
  deletion_seconds_ += seconds;
}

void TimePlan::synced(double bytes, double seconds) {
  synced_bytes_ += bytes;
  sync_seconds_ += seconds;
  shortest_sync_ = syncs_ == 0 ? seconds : std::min(shortest_sync_, seconds);
  ++syncs_;
}

double TimePlan::sync_fixed() const {
  return shortest_sync_;
}

void TimePlan::pattern_done(RowCost cost, int units, double bytes, double seconds) {
  rows_left_ = std::max(0, rows_left_ - 1);
  if (rows_ - rows_left_ == 1) first_bookkeeping_ = bookkeeping_seconds_;
  const std::size_t k = index(cost);
  units_left_[k] = std::max(0, units_left_[k] - units);
  if (units > 0) {
    units_done_[k] += units;
    seconds_done_[k] += seconds;
  }
  if (cost != RowCost::timed && cost != RowCost::sized) return;
  written_bytes_ += bytes;
  write_seconds_ += seconds;
}

double TimePlan::cost_ratio(RowCost cost) const {
  const std::size_t timed = index(RowCost::timed);
  if (cost == RowCost::timed) return 1;
  const std::size_t k = index(cost);
  if (units_done_[k] > 0 && units_done_[timed] > 0 && seconds_done_[timed] > 0) {
    return (seconds_done_[k] / units_done_[k]) / (seconds_done_[timed] / units_done_[timed]);
  }
  if (cost == RowCost::read && probe_write_seconds_ > 0) {
    return probe_read_seconds_ / probe_write_seconds_;
  }
  return 1;
}

double TimePlan::sync_per_byte() const {
  // What the syncs took beyond their fixed part, over the bytes they wrote.
  const double beyond = sync_seconds_ - syncs_ * shortest_sync_;
  return synced_bytes_ > 0 ? std::max(0.0, beyond) / synced_bytes_ : 0;
}

double TimePlan::deletion_per_byte() const {
  if (!deleting_) return 0;
  if (deleted_bytes_ > 0 && deleted_bytes_ >= probe_bytes_) {
    return deletion_seconds_ / deleted_bytes_;
  }
  return probe_bytes_ > 0 ? probe_seconds_ / probe_bytes_ : 0;
}

double TimePlan::write_bandwidth() const {
  return write_seconds_ > 0 ? written_bytes_ / write_seconds_ : 0;
}

double TimePlan::reserve() const {
  const int opens_left = std::max(0, files_ - opens_);
  const int closes_left = std::max(0, files_ - closes_);
  const double mean_open = opens_ > 0 ? open_seconds_ / opens_ : 0;
  const double mean_close = closes_ > 0 ? close_seconds_ / closes_ : 0;
  const int rows_done = rows_ - rows_left_;
  const double mean_bookkeeping =
      rows_done > 1 ? (bookkeeping_seconds_ - first_bookkeeping_) / (rows_done - 1) : 0;
  const double in_files = std::max(0.0, written_bytes_ - deleted_bytes_);
  return opens_left * mean_open + closes_left * mean_close + rows_left_ * mean_bookkeeping +
         deletion_per_byte() * in_files;
}

double TimePlan::unit_time(double elapsed) const {
  const double rev21 = schedule_.unit_time();
  double units = 0;  // sum_k c_k * U_k
  for (RowCost cost : {RowCost::timed, RowCost::sized, RowCost::rewrite, RowCost::read}) {
    units += cost_ratio(cost) * units_left_[index(cost)];
  }
  if (units <= 0) return rev21;
  const double available = schedule_.schedule_time - elapsed - reserve();
  if (available <= 0) return 0;
  // Writing still to come, in time-driven seconds per s: what the deletion of its bytes costs.
  const double writing = units_left_[index(RowCost::timed)] +
                         cost_ratio(RowCost::sized) * units_left_[index(RowCost::sized)];
  const double weight = units + deletion_per_byte() * write_bandwidth() * writing;
  return std::min(kMostUnitTimeFactor * rev21, available / weight);
}

}  // namespace pbench::io
