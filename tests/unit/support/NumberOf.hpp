#pragma once
// One number a query gives on a store, for the tests that count rows or read a PRAGMA.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "store/Store.hpp"

namespace pbench::testing {

/// The first column of the first row `sql` gives on `store`: a count, a PRAGMA's value.
inline std::int64_t number_of(store::Store& store, const std::string& sql) {
  auto s = store.db().prepare(sql);
  REQUIRE(s.step());
  return s.int64(0);
}

}  // namespace pbench::testing
