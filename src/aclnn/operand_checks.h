// The steps every kind's front end takes over its operands, each over all of them before the
// next, as the op_api's checks run: the nulls (161001), each descriptor as it is read (rank
// and dims), each operand's storage, and each written output's elements apart from one
// another and from every other operand. What lies between them (dtypes, attributes, shapes,
// in each op_api's own order) stays the front end's. Operands not given (an optional one's
// null) are passed over by every step but CheckGiven.
#ifndef HOSTNN_SRC_ACLNN_OPERAND_CHECKS_H_
#define HOSTNN_SRC_ACLNN_OPERAND_CHECKS_H_

#include <cstddef>
#include <initializer_list>
#include <vector>

#include "src/aclnn/front_end.h"

namespace hostnn {

// The operands one step walks, in the order its messages should follow: a braced list of
// pointers, an array or a vector of them (valid while the call runs).
class OperandList {
 public:
  OperandList(std::initializer_list<CheckedOperand*> list)
      : first_(list.begin()), count_(list.size()) {}
  OperandList(const std::vector<CheckedOperand*>& list)  // NOLINT: a list as it is
      : first_(list.data()), count_(list.size()) {}
  template <size_t N>
  OperandList(CheckedOperand* const (&list)[N])  // NOLINT: a list as it is
      : first_(list), count_(N) {}
  CheckedOperand* const* begin() const { return first_; }
  CheckedOperand* const* end() const { return first_ + count_; }

 private:
  CheckedOperand* const* first_;
  size_t count_;
};

// 161001 naming the first operand that is not given.
Status CheckGiven(const char* op, OperandList required);

// Each given operand's rank (at most max_rank dims) and dims.
Status CheckDescriptors(const char* op, OperandList operands, int max_rank = kMaxDims);

// Each given operand's storage (core::CheckStorage), which fills its span.
Status CheckStorages(const char* op, OperandList operands);

// Each operand of `written`: no element written twice, and no byte shared with any given
// operand of `others` but itself (CheckApart).
Status CheckWrittenApart(const char* op, OperandList written, OperandList others);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_OPERAND_CHECKS_H_
