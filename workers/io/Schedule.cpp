#include "io/Schedule.hpp"

#include "io/PatternTable.hpp"

namespace pbench::io {

int Schedule::time_units_sum() const {
  return kTotalTimeUnits + (rewrite_all ? kTotalTimeUnits : kType0TimeUnits) + kTotalTimeUnits;
}

double Schedule::partition_time() const {
  return partitions > 0 ? schedule_time / partitions : 0;
}

double Schedule::unit_time() const {
  return partition_time() / time_units_sum();
}

double Schedule::pattern_time(int time_units) const {
  return unit_time() * time_units;
}

}  // namespace pbench::io
