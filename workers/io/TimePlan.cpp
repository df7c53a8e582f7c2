#include "io/TimePlan.hpp"

#include <algorithm>

#include "common/EnumName.hpp"

namespace pbench::io {

const char* time_part_name(TimePart part) {
  constexpr EnumName<TimePart> kNames[] = {{TimePart::setup, "setup"},
                                           {TimePart::deletion_probe, "deletion_probe"},
                                           {TimePart::opens, "opens"},
                                           {TimePart::patterns, "patterns"},
                                           {TimePart::closes, "closes"},
                                           {TimePart::deletion, "deletion"},
                                           {TimePart::bookkeeping, "bookkeeping"},
                                           {TimePart::removal, "removal"}};
  return name_of(kNames, part);
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
      parts_(static_cast<std::size_t>(std::max(1, schedule.partitions))),
      files_(files / std::max(1, schedule.partitions)),
      deleting_(deleting) {
  const int n = static_cast<int>(parts_.size());
  for (Part& p : parts_) {
    p.rows_left = rows / n;
    p.units_left = {units.timed / n, units.sized / n, units.rewrite / n, units.read / n};
  }
}

void TimePlan::probed_read(double write_seconds, double read_seconds) {
  probe_write_seconds_ = write_seconds;
  probe_read_seconds_ = read_seconds;
}

void TimePlan::probed_deletion(double bytes, double seconds) {
  probe_bytes_ += bytes;
  probe_seconds_ += seconds;
}

void TimePlan::opened(int p, double seconds) {
  ++opens_;
  open_seconds_ += seconds;
  ++part(p).opens;
  part(p).spent += seconds;
}

void TimePlan::closed(int p, double seconds) {
  ++closes_;
  close_seconds_ += seconds;
  ++part(p).closes;
  part(p).spent += seconds;
}

void TimePlan::deleted(int p, double bytes, double seconds) {
  deleted_bytes_ += bytes;
  deletion_seconds_ += seconds;
  part(p).deleted_bytes += bytes;
  part(p).spent += seconds;
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

void TimePlan::pattern_done(int p, RowCost cost, int units, double bytes, double seconds) {
  Part& mine = part(p);
  mine.rows_left = std::max(0, mine.rows_left - 1);
  if (++rows_done_ == 1) first_bookkeeping_ = bookkeeping_seconds_;
  mine.spent += seconds + (bookkeeping_seconds_ - charged_bookkeeping_);
  charged_bookkeeping_ = bookkeeping_seconds_;
  const std::size_t k = index(cost);
  mine.units_left[k] = std::max(0, mine.units_left[k] - units);
  if (units > 0) {
    units_done_[k] += units;
    seconds_done_[k] += seconds;
  }
  if (cost != RowCost::timed && cost != RowCost::sized) return;
  mine.written_bytes += bytes;
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

double TimePlan::reserve(int p) const {
  const Part& mine = part(p);
  const int opens_left = std::max(0, files_ - mine.opens);
  const int closes_left = std::max(0, files_ - mine.closes);
  const double mean_open = opens_ > 0 ? open_seconds_ / opens_ : 0;
  const double mean_close = closes_ > 0 ? close_seconds_ / closes_ : 0;
  const double mean_bookkeeping =
      rows_done_ > 1 ? (bookkeeping_seconds_ - first_bookkeeping_) / (rows_done_ - 1) : 0;
  const double in_files = std::max(0.0, mine.written_bytes - mine.deleted_bytes);
  return opens_left * mean_open + closes_left * mean_close + mine.rows_left * mean_bookkeeping +
         deletion_per_byte() * in_files;
}

double TimePlan::budget(int p, double elapsed) const {
  const double n = static_cast<double>(parts_.size());
  double spent = 0;
  double left_over = 0;  // what ended partitions did not spend of their budgets
  int running = 0;
  for (const Part& q : parts_) spent += q.spent;
  const double unowned = std::max(0.0, elapsed - spent);
  const double own = (schedule_.schedule_time - unowned) / n;
  for (const Part& q : parts_) {
    if (q.rows_left > 0) {
      ++running;
    } else {
      left_over += std::max(0.0, own - q.spent);
    }
  }
  const bool ended = part(p).rows_left == 0;
  return own + (ended || running == 0 ? 0.0 : left_over / running);
}

double TimePlan::unit_time(int p, double elapsed) const {
  const double rev21 = schedule_.unit_time();
  const Part& mine = part(p);
  if (weighted_units(mine.units_left) <= 0) return rev21;
  const double own = per_unit(budget(p, elapsed) - mine.spent - reserve(p), mine.units_left);
  // The whole run's: what is left of T over every partition's units still to run.
  double all_reserve = 0;
  std::array<int, kRowCosts> all_left{};
  for (std::size_t q = 0; q < parts_.size(); ++q) {
    all_reserve += reserve(static_cast<int>(q));
    for (std::size_t k = 0; k < kRowCosts; ++k) all_left[k] += parts_[q].units_left[k];
  }
  const double run = per_unit(schedule_.schedule_time - elapsed - all_reserve, all_left);
  return std::min({kMostUnitTimeFactor * rev21, own, run});
}

double TimePlan::weighted_units(const std::array<int, kRowCosts>& left) const {
  double units = 0;  // sum_k c_k * U_k
  for (RowCost cost : {RowCost::timed, RowCost::sized, RowCost::rewrite, RowCost::read}) {
    units += cost_ratio(cost) * left[index(cost)];
  }
  return units;
}

double TimePlan::per_unit(double available, const std::array<int, kRowCosts>& left) const {
  if (available <= 0) return 0;
  // Writing still to come, in time-driven seconds per s: what the deletion of its bytes costs.
  const double writing =
      left[index(RowCost::timed)] + cost_ratio(RowCost::sized) * left[index(RowCost::sized)];
  const double weight = weighted_units(left) + deletion_per_byte() * write_bandwidth() * writing;
  return available / weight;
}

}  // namespace pbench::io
