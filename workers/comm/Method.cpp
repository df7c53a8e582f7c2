#include "comm/Method.hpp"

#include "common/EnumName.hpp"

namespace pbench::comm {

namespace {

constexpr EnumName<Method> kMethodNames[] = {{Method::kSendrecv, "sendrecv"},
                                             {Method::kAlltoallv, "alltoallv"},
                                             {Method::kNonblocking, "nonblocking"}};

}  // namespace

std::string method_name(Method method) {
  return name_of(kMethodNames, method);
}

std::string method_title(Method method) {
  constexpr EnumName<Method> kTitles[] = {{Method::kSendrecv, "Sendrecv"},
                                          {Method::kAlltoallv, "Alltoallv"},
                                          {Method::kNonblocking, "Irecv/Isend/Waitall"}};
  return name_of(kTitles, method);
}

std::optional<Method> method_from_name(const std::string& name) {
  return value_named(kMethodNames, name);
}

const std::vector<Method>& all_methods() {
  static const std::vector<Method> methods{Method::kSendrecv, Method::kAlltoallv,
                                           Method::kNonblocking};
  return methods;
}

}  // namespace pbench::comm
