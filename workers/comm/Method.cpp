#include "comm/Method.hpp"

namespace pbench::comm {

std::string method_name(Method method) {
  switch (method) {
    case Method::kSendrecv: return "sendrecv";
    case Method::kAlltoallv: return "alltoallv";
    case Method::kNonblocking: return "nonblocking";
  }
  return "unknown";
}

std::string method_title(Method method) {
  switch (method) {
    case Method::kSendrecv: return "Sendrecv";
    case Method::kAlltoallv: return "Alltoallv";
    case Method::kNonblocking: return "Irecv/Isend/Waitall";
  }
  return "unknown";
}

std::optional<Method> method_from_name(const std::string& name) {
  for (Method m : all_methods()) {
    if (method_name(m) == name) return m;
  }
  return std::nullopt;
}

const std::vector<Method>& all_methods() {
  static const std::vector<Method> methods{Method::kSendrecv, Method::kAlltoallv,
                                           Method::kNonblocking};
  return methods;
}

}  // namespace pbench::comm
