// The operator table's lookups (the table itself is constexpr, in hostnn/op.h).

#include "hostnn/op.h"

namespace hostnn {

bool FindOp(const std::string& snake_name, Op* op) {
  for (Op candidate : AllOps()) {
    if (snake_name == GetOpInfo(candidate).snake_name) {
      *op = candidate;
      return true;
    }
  }
  return false;
}

std::string OpNames(const char* separator) {
  std::string names;
  for (Op op : AllOps())
    names += (names.empty() ? "" : separator) + std::string(GetOpInfo(op).snake_name);
  return names;
}

}  // namespace hostnn
