// The embedded default `pbench run` plans without a sweep name.
#include <doctest/doctest.h>

#include "sweep/DemoSweep.hpp"
#include "sweep/WorkerCatalog.hpp"

using namespace pbench::sweep;

TEST_CASE("the demo runs every worker of the catalog with its demo settings and a short T") {
  SweepSpec spec;
  spec.name = "demo";
  apply_demo_defaults(spec, {});
  std::vector<std::string> catalog;
  for (const auto& w : worker_catalog()) catalog.push_back(w.name);
  CHECK(spec.workers == catalog);
  CHECK(spec.values_as<double>("schedule_time") == std::vector<double>{kDemoScheduleTime});
  for (const auto& s : demo_settings())
    CHECK(spec.settings.at(s.worker).at(s.parameter) == s.value);
  spec.validate();
  CHECK_FALSE(expand(spec).empty());
}

TEST_CASE("the user's workers, T and settings win over the demo's") {
  SweepSpec spec;
  spec.name = "demo";
  spec.workers = {"comm"};
  spec.set_values("schedule_time", nlohmann::json::array({60}));
  spec.settings["comm"]["repetitions"] = "3";
  apply_demo_defaults(spec, {.workers = true, .schedule_times = true});
  CHECK(spec.workers == std::vector<std::string>{"comm"});
  CHECK(spec.values_as<double>("schedule_time") == std::vector<double>{60});
  CHECK(spec.settings.at("comm").at("repetitions") == "3");
  CHECK(spec.settings.at("comm").at("memory_per_proc") == "16MiB");
  CHECK(spec.settings.count("io") == 0);  // settings only for the sweep's workers
  CHECK(spec.settings.count("bcast") == 0);
}
