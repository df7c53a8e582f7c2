// The one reading of sizes and times (workers/common/Units.hpp) that every worker parameter,
// `pbench --set`, --transfer-sizes and --schedule-times share.
#include <doctest/doctest.h>

#include "common/Units.hpp"

using namespace pbench::units;

TEST_CASE("units: sizes in bytes, decimal and binary units, any case") {
  CHECK(parse_size("4096") == 4096);
  CHECK(parse_size("0") == 0);
  CHECK(parse_size("8B") == 8);
  CHECK(parse_size("1kB") == 1000);
  CHECK(parse_size("1KB") == 1000);
  CHECK(parse_size("64KiB") == 65536);
  CHECK(parse_size("256MiB") == 268435456);
  CHECK(parse_size("256mib") == 268435456);
  CHECK(parse_size("1MB") == 1000000);
  CHECK(parse_size("2GB") == 2000000000);
  CHECK(parse_size("1GiB") == 1073741824);
  CHECK(parse_size("1TiB") == 1099511627776);
  CHECK(parse_size("1.5MiB") == 1572864);
  CHECK(parse_size(" 2 GiB ") == 2147483648);
  CHECK(parse_size("2k") == 2000);  // a bare prefix is decimal, as with kB
  CHECK(parse_size("3M") == 3000000);
}

TEST_CASE("units: what is not a size") {
  for (const char* bad : {"", "MiB", "-1", "1.5", "1 parsec", "1e3", "x", "1,5MiB",
                          "99999999999999999999", "10000000TiB"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_size(bad).has_value());
  }
}

TEST_CASE("units: times in seconds, ms, us, min, h") {
  CHECK(parse_seconds("60") == doctest::Approx(60));
  CHECK(parse_seconds("0.5") == doctest::Approx(0.5));
  CHECK(parse_seconds("2s") == doctest::Approx(2));
  CHECK(parse_seconds("250ms") == doctest::Approx(0.25));
  CHECK(parse_seconds("20us") == doctest::Approx(20e-6));
  CHECK(parse_seconds("1.5min") == doctest::Approx(90));
  CHECK(parse_seconds("1h") == doctest::Approx(3600));
  CHECK(parse_seconds("-1.5") == doctest::Approx(-1.5));
  CHECK(parse_seconds("100", 1e-6) == doctest::Approx(100e-6));  // a parameter in us
  CHECK(parse_seconds("1ms", 1e-6) == doctest::Approx(1e-3));
  for (const char* bad : {"", "s", "--1", "5 fortnights", "1m", "inf", "nan"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_seconds(bad).has_value());
  }
}

TEST_CASE("units: plain numbers have no e-notation and no trailing zeros") {
  CHECK(plain_number(0.0001) == "0.0001");
  CHECK(plain_number(60) == "60");
  CHECK(plain_number(20) == "20");
  CHECK(plain_number(1.5e9) == "1500000000");
}

TEST_CASE("units: short numbers as %g writes them, to the digits asked for") {
  CHECK(short_number(0.25) == "0.25");
  CHECK(short_number(1e-7) == "1e-07");
  CHECK(short_number(1500000) == "1.5e+06");
  CHECK(short_number(-3) == "-3");
  CHECK(short_number(1.23456, 3) == "1.23");
  CHECK(short_number(0.0001234, 3) == "0.000123");
}
