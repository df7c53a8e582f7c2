#include "util/Time.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace pbench {

std::string utc_now() {
  using namespace std::chrono;
  const auto now = system_clock::now();
  const std::time_t seconds = system_clock::to_time_t(now);
  const auto millis = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[80];
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(millis));
  return text;
}

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
