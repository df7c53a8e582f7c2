// EnumName (workers/common/EnumName.hpp): one table of an enumeration's names read both ways,
// as the workers and the orchestrator name their states, methods and patterns.
#include <doctest/doctest.h>

#include <string>

#include "comm/Method.hpp"
#include "common/EnumName.hpp"
#include "store/Store.hpp"

namespace {

enum class Colour { red, green, blue };

constexpr pbench::EnumName<Colour> kColours[] = {{Colour::red, "red"}, {Colour::green, "green"}};

}  // namespace

TEST_CASE("enum names: a value's name, the value of a name, and what a table lacks") {
  CHECK(std::string(pbench::name_of(kColours, Colour::green)) == "green");
  CHECK(std::string(pbench::name_of(kColours, Colour::blue)) == "unknown");
  CHECK(std::string(pbench::name_of(kColours, Colour::blue, "none")) == "none");
  CHECK(pbench::value_named(kColours, "red") == Colour::red);
  CHECK_FALSE(pbench::value_named(kColours, "blue").has_value());
  CHECK_FALSE(pbench::value_named(kColours, "Red").has_value());
}

TEST_CASE("enum names: every point state and comm method goes to its name and back") {
  using pbench::store::PointState;
  for (auto state : {PointState::planned, PointState::queued, PointState::running, PointState::done,
                     PointState::failed, PointState::cancelled, PointState::timeout}) {
    CHECK(pbench::store::point_state_from(pbench::store::to_string(state)) == state);
  }
  for (auto method : pbench::comm::all_methods()) {
    CHECK(pbench::comm::method_from_name(pbench::comm::method_name(method)) == method);
  }
  CHECK(pbench::comm::method_title(pbench::comm::Method::kNonblocking) == "Irecv/Isend/Waitall");
}
