// pbench-io: the b_eff_io reduction on synthetic type totals: type bandwidth over open to
// close, access methods with type 0 counted twice, rev 2.1's sqrt(WR * R), the paper's
// 0.25/0.25/0.5, and the system maximum with its partition.
#include <doctest/doctest.h>

#include <cmath>

#include "io/HintSet.hpp"
#include "io/IoFigures.hpp"
#include "io/IoParameters.hpp"

using namespace pbench::io;

namespace {

TypeMeasurement type(int partition, Access access, int t, double bandwidth) {
  TypeMeasurement m;
  m.partition = partition;
  m.access = access;
  m.type = t;
  m.bytes = 1000000;
  m.total_time = 1000000 / bandwidth;
  return m;
}

std::vector<TypeMeasurement> partition_types(int n, double scale, bool rewrite_all = false) {
  std::vector<TypeMeasurement> out;
  for (int t = 0; t < 5; ++t) out.push_back(type(n, Access::write, t, scale * (10 + t)));
  for (int t = 0; t < (rewrite_all ? 5 : 1); ++t) {
    out.push_back(type(n, Access::rewrite, t, scale * (20 + t)));
  }
  for (int t = 0; t < 5; ++t) out.push_back(type(n, Access::read, t, scale * (30 + 2 * t)));
  return out;
}

}  // namespace

TEST_CASE("io: b_eff_io = sqrt(WR * R) as rev 2.1, and the paper's 0.25/0.25/0.5 beside it") {
  const IoFigures f = IoFigures::reduce(partition_types(2, 1.0), {2}, false);
  REQUIRE(f.partitions.size() == 1);
  const PartitionFigures& p = f.partitions[0];
  const double write = (2 * 10 + 11 + 12 + 13 + 14) / 6.0;
  const double rewrite = 20;
  const double read = (2 * 30 + 32 + 34 + 36 + 38) / 6.0;
  CHECK(p.access_bandwidth.at(Access::write) == doctest::Approx(write));
  CHECK(p.access_bandwidth.at(Access::rewrite) == doctest::Approx(rewrite));
  CHECK(p.access_bandwidth.at(Access::read) == doctest::Approx(read));
  REQUIRE(p.b_eff_io_paper);
  CHECK(*p.b_eff_io_paper == doctest::Approx(0.25 * write + 0.25 * rewrite + 0.5 * read));
  const double wr = (10 + 11 + 12 + 13 + 14 + 20) / 6.0;
  REQUIRE(p.b_eff_io);
  CHECK(*p.b_eff_io == doctest::Approx(std::sqrt(wr * read)));
  CHECK(p.access_bytes.at(Access::write) == 5000000);
  CHECK(p.access_bytes.at(Access::rewrite) == 1000000);
}

TEST_CASE("io: a table reduced by hand to the reference code's numbers") {
  // Each type moved 1.2 GB (both processes); its time is open + patterns + close, e.g. write
  // type 0: 0.5 s open + 9 s patterns + 0.5 s close = 10 s, 120 MB/s.
  auto t = [](Access a, int type, double open, double patterns, double close) {
    TypeMeasurement m;
    m.partition = 2;
    m.access = a;
    m.type = type;
    m.bytes = 1200000000;
    m.open_time = open;
    m.close_time = close;
    m.total_time = open + patterns + close;
    return m;
  };
  const std::vector<TypeMeasurement> types = {
      t(Access::write, 0, 0.5, 9, 0.5),     // 120 MB/s
      t(Access::write, 1, 1, 18, 1),        // 60
      t(Access::write, 2, 0, 20, 0),        // 60
      t(Access::write, 3, 0, 19, 1),        // 60
      t(Access::write, 4, 1, 19, 0),        // 60
      t(Access::rewrite, 0, 0.5, 4, 0.5),   // 240
      t(Access::read, 0, 0.5, 2, 0.5),      // 400
      t(Access::read, 1, 0.25, 5.5, 0.25),  // 200
      t(Access::read, 2, 0.25, 1.5, 0.25),  // 600
      t(Access::read, 3, 0, 5, 1),          // 200
      t(Access::read, 4, 0, 1, 1),          // 600
  };
  const IoFigures f = IoFigures::reduce(types, {2}, false);
  const PartitionFigures& p = f.partitions.at(0);
  CHECK(p.type_bandwidth.at({Access::write, 0}) == doctest::Approx(120e6));
  CHECK(p.type_bandwidth.at({Access::read, 1}) == doctest::Approx(200e6));
  // Access methods, type 0 twice: write (240 + 60 + 60 + 60 + 60) / 6 = 80; rewrite (2 * 240) / 2
  // = 240; read (800 + 200 + 600 + 200 + 600) / 6 = 400 MB/s.
  CHECK(p.access_bandwidth.at(Access::write) == doctest::Approx(80e6));
  CHECK(p.access_bandwidth.at(Access::rewrite) == doctest::Approx(240e6));
  CHECK(p.access_bandwidth.at(Access::read) == doctest::Approx(400e6));
  // WR = (120 + 60 + 60 + 60 + 60 + 240) / 6 = 100; b_eff_io = sqrt(100 * 400) = 200 MB/s.
  REQUIRE(p.write_rewrite);
  CHECK(*p.write_rewrite == doctest::Approx(100e6));
  REQUIRE(p.b_eff_io);
  CHECK(*p.b_eff_io == doctest::Approx(200e6));
  // The paper's: 0.25 * 80 + 0.25 * 240 + 0.5 * 400 = 280 MB/s.
  REQUIRE(p.b_eff_io_paper);
  CHECK(*p.b_eff_io_paper == doctest::Approx(280e6));
  REQUIRE(f.system);
  CHECK(*f.system == doctest::Approx(200e6));
  CHECK(f.system_partition == 2);
}

TEST_CASE("io: with --rewrite-all the rewrite averages all five types") {
  const IoFigures f = IoFigures::reduce(partition_types(1, 1.0, true), {1}, true);
  CHECK(f.partitions[0].access_bandwidth.at(Access::rewrite) ==
        doctest::Approx((2 * 20 + 21 + 22 + 23 + 24) / 6.0));
}

TEST_CASE("io: the system value is the maximum over partitions, with the partition") {
  auto types = partition_types(1, 1.0);
  auto more = partition_types(2, 3.0);
  auto less = partition_types(4, 2.0);
  types.insert(types.end(), more.begin(), more.end());
  types.insert(types.end(), less.begin(), less.end());
  const IoFigures f = IoFigures::reduce(types, {1, 2, 4}, false);
  REQUIRE(f.system);
  CHECK(f.system_partition == 2);
  CHECK(*f.system == doctest::Approx(*f.partitions[1].b_eff_io));
  CHECK(f.system_paper_partition == 2);
}

TEST_CASE("io: a missing or incomplete type leaves its access method and b_eff_io absent") {
  auto types = partition_types(2, 1.0);
  types[7].complete = false;  // read, type 1
  const IoFigures f = IoFigures::reduce(types, {2}, false);
  const PartitionFigures& p = f.partitions[0];
  CHECK(p.access_bandwidth.count(Access::write) == 1);
  CHECK(p.access_bandwidth.count(Access::read) == 0);
  CHECK_FALSE(p.b_eff_io);
  CHECK_FALSE(p.b_eff_io_paper);
  CHECK_FALSE(f.system);
  CHECK(weighted_access_average({{0, 10.0}, {2, 40.0}}) == doctest::Approx(20.0));
}

TEST_CASE("io: hints from the environment, a file and the command line, per type") {
  HintSet hints;
  char e1[] = "PBENCH_HINT_ROMIO_CB_WRITE=disable";
  char e2[] = "PBENCH_HINT_TYPE0_CB_BUFFER_SIZE=1048576";
  char e3[] = "PATH=/bin";
  char* env[] = {e1, e2, e3, nullptr};
  hints.add_environment(env);
  hints.add(HintSet::parse("romio_cb_write=enable", "command_line"));
  hints.add(HintSet::parse("type0:cb_buffer_size=16777216", "command_line"));
  hints.add(HintSet::parse("cb_nodes=2", "command_line"));
  const HintList t0 = hints.for_type(0);
  const HintList t1 = hints.for_type(1);
  CHECK(t0 ==
        HintList{{"cb_buffer_size", "16777216"}, {"cb_nodes", "2"}, {"romio_cb_write", "enable"}});
  CHECK(t1 == HintList{{"cb_nodes", "2"}, {"romio_cb_write", "enable"}});
  CHECK(HintSet::parse("type3:a=b", "x").type == 3);
  CHECK_THROWS(HintSet::parse("novalue", "x"));
  CHECK_THROWS(HintSet::parse("type7:a=b", "x"));
  CHECK_THROWS(HintSet::parse("a b=c", "x"));
  CHECK_THROWS(HintSet::parse("a=", "x"));
}

TEST_CASE("io: bad options are usage errors naming the option") {
  char* env[] = {nullptr};
  IoOptions o;
  o.schedule_time = 0;
  CHECK_THROWS_WITH(IoConfig::check(o, env), doctest::Contains("--schedule-time"));
  o = IoOptions{};
  o.partitions = {2, 2};
  CHECK_THROWS_WITH(IoConfig::check(o, env), doctest::Contains("appears twice"));
  o = IoOptions{};
  o.termination = "sometimes";
  CHECK_THROWS_WITH(IoConfig::check(o, env), doctest::Contains("--termination"));
  o = IoOptions{};
  o.hint = {"oops"};
  CHECK_THROWS_WITH(IoConfig::check(o, env), doctest::Contains("--hint"));
  o = IoOptions{};
  const IoConfig c = IoConfig::check(o, env);
  CHECK(c.partitions_for(8) == std::vector<int>{2, 4, 8});
  CHECK(c.partitions_for(2) == std::vector<int>{1, 2});
  CHECK(c.partitions_for(1) == std::vector<int>{1});
  o.partitions = {1, 4};
  CHECK_THROWS_WITH(IoConfig::check(o, env).partitions_for(2), doctest::Contains("exceeds"));
}
