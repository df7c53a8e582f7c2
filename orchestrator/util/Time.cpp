#include "util/Time.hpp"

#include <cstdio>
#include <ctime>

namespace pbench {

// utc_now() is defined once, in workers/common/UtcClock.cpp (pbench_units, which this library
// links): the orchestrator's records and the workers' documents share one clock.

namespace {
bool parse(const std::string& text, double& out) {
  std::tm t{};
  double fraction = 0;
  int y, mo, d, h, mi;
  double s;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%lf", &y, &mo, &d, &h, &mi, &s) != 6) return false;
  t.tm_year = y - 1900;
  t.tm_mon = mo - 1;
  t.tm_mday = d;
  t.tm_hour = h;
  t.tm_min = mi;
  t.tm_sec = static_cast<int>(s);
  fraction = s - static_cast<int>(s);
  out = static_cast<double>(timegm(&t)) + fraction;
  return true;
}
}  // namespace

double seconds_between(const std::string& a, const std::string& b) {
  double ta = 0, tb = 0;
  if (!parse(a, ta) || !parse(b, tb)) return 0;
  return tb - ta;
}

}  // namespace pbench
