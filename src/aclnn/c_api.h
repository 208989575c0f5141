// The C API's shared plumbing: aclTensor is a TensorView; aclOpExecutor wraps an Executor
// and is tracked in a registry, so running an executor twice, after destruction, or one
// that never existed is refused instead of being undefined behaviour.
#ifndef HOSTNN_SRC_ACLNN_C_API_H_
#define HOSTNN_SRC_ACLNN_C_API_H_

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "hostnn/ops.h"

struct aclTensor {
  hostnn::TensorView view;
  aclFormat format = ACL_FORMAT_ND;  // kept for aclGetFormat; the operators read ND views
};

// aclCreateTensorList: owns its tensors.
struct aclTensorList {
  std::vector<const aclTensor*> tensors;
};

struct aclIntArray {
  std::vector<int64_t> values;
};

struct aclBoolArray {
  std::vector<bool> values;
};

struct aclFloatArray {
  std::vector<float> values;
};

// One value of `dtype`, copied: the bytes of the caller's value, at most 16 (COMPLEX128).
struct aclScalar {
  aclDataType dtype = ACL_FLOAT;
  alignas(16) unsigned char bytes[16] = {};
};

namespace hostnn {
namespace capi {

inline const TensorView* ViewOf(const aclTensor* t) { return t == nullptr ? nullptr : &t->view; }

// An aclScalar's value (nullptr: null, refused by the front end); a dtype without a real
// value (complex) keeps its dtype for the front end to refuse.
OpScalar ScalarArg(const aclScalar* s);

// An attribute of the C prototype as the aclScalar MakeArgs reads like the numbers
// (HOSTNN_SIG_ATTR(v) in src/aclnn/signatures.h): an int64_t (GeGlu's approximate) as an
// INT64 scalar, a double (SituGlu's beta) as a DOUBLE one, a char* (GeluMul's
// approximateOptional) as a STRING scalar holding the pointer, which MakeArgs turns into
// the number of the mode it names (StringArg; the string is read during the call only).
// A temporary: it lives to the end of the call it is an argument of.
class Attr {
 public:
  explicit Attr(int64_t v) { Set(ACL_INT64, &v, sizeof(v)); }
  explicit Attr(double v) { Set(ACL_DOUBLE, &v, sizeof(v)); }
  explicit Attr(const char* v) { Set(ACL_STRING, &v, sizeof(v)); }
  const aclScalar* get() const { return &scalar_; }

 private:
  void Set(aclDataType dtype, const void* v, size_t size) {
    scalar_.dtype = dtype;
    std::memcpy(scalar_.bytes, v, size);  // at most 8 bytes: every kind fits
  }
  aclScalar scalar_;
};

// The number a string parameter carries (ScalarKind::kString): the index of the name s
// holds among p.modes, an INT64 value; -1 for a name not among them. A null string is
// not given: the parameter's default.
inline OpScalar StringArg(const ScalarParam& p, const aclScalar* s) {
  OpScalar r;
  const char* name = nullptr;
  if (s != nullptr) std::memcpy(&name, s->bytes, sizeof(name));
  if (name == nullptr) return r;
  r.given = true;
  r.dtype = DType::kInt64;
  r.int_value = ModeIndex(p, name);
  r.value = static_cast<double>(r.int_value);
  return r;
}

// A prototype's arrays (HOSTNN_SIG_ARRAY_: none, an aclIntArray, or an aclIntArray and an
// aclBoolArray), as MakeArgs takes them.
struct ArrayArgs {
  const aclIntArray* ints = nullptr;
  const aclBoolArray* bools = nullptr;
};
inline ArrayArgs Arrays(const aclIntArray* ints = nullptr, const aclBoolArray* bools = nullptr) {
  return {ints, bools};
}

// A call's operands by slot: the prototype's inputs in0 .. in6 go to OpArgs::in[] and its
// outputs out, out1, out2 to OpArgs::out[] (HOSTNN_SIG_INS_ and HOSTNN_SIG_OUTS_ list them),
// its aclIntArray to OpArgs::int_array and its aclBoolArray to OpArgs::bool_array
// (src/aclnn/signatures.h says which C parameter is which; null where the prototype has none), and
// its scalar parameters: the aclScalars s0 .. s4 go to the operator's numbers (an int64_t or
// char* attribute among them, as Attr made it) and the bool f0 to its flag, in the order of its
// Scalars column.
inline OpArgs MakeArgs(Op op, std::initializer_list<const aclTensor*> ins,
                       std::initializer_list<const aclTensor*> outs, int64_t dim,
                       ArrayArgs arrays = {}, const aclScalar* s0 = nullptr,
                       const aclScalar* s1 = nullptr, const aclScalar* s2 = nullptr,
                       const aclScalar* s3 = nullptr, const aclScalar* s4 = nullptr,
                       bool f0 = false) {
  OpArgs a;
  a.op = op;
  const aclScalar* numbers[] = {s0, s1, s2, s3, s4};
  int next = 0;
  const OpInfo& info = GetOpInfo(op);
  for (int k = 0; k < info.num_scalars(); ++k) {
    if (info.scalars[k].kind == ScalarKind::kFlag) {
      a.scalars[k] = OpScalar{true, f0 ? 1.0 : 0.0, DType::kBool};
    } else if (next < 5) {
      const aclScalar* s = numbers[next++];
      a.scalars[k] = info.scalars[k].kind == ScalarKind::kString ? StringArg(info.scalars[k], s)
                                                                 : ScalarArg(s);
    }
  }
  int k = 0;
  for (const aclTensor* t : ins) {
    if (k < kMaxIn) a.in[k++] = ViewOf(t);
  }
  k = 0;
  for (const aclTensor* t : outs) {
    if (k < kMaxOut) a.out[k++] = ViewOf(t);
  }
  a.dim = dim;
  if (arrays.ints != nullptr) {
    a.int_array = arrays.ints->values;
    a.int_array_given = true;
  }
  if (arrays.bools != nullptr) {
    a.bool_array = arrays.bools->values;
    a.bool_array_given = true;
  }
  return a;
}

// Phase 1 for the C API: null workspaceSize / executor -> 161001, then Prepare; on
// success registers a new aclOpExecutor. Records the message on failure.
aclnnStatus GetWorkspaceSize(const OpArgs& args, uint64_t* workspace_size,
                             aclOpExecutor** executor);

// Phase 2 for the C API: checks the executor (live, made for `op`) and the workspace,
// then runs now (null stream) or queues on the stream. A non-repeatable executor is
// consumed by a run that starts.
aclnnStatus Launch(Op op, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                   aclrtStream stream);

// Phase 2 of an entry point whose phase 1 hands over to one of two operators
// (aclnnGeluV2: GeluErf or Gelu): Launch for the operator that made the executor when it
// is `other`, for `op` otherwise (so a dead or foreign executor is refused in op's name).
aclnnStatus LaunchEither(Op op, Op other, void* workspace, uint64_t workspace_size,
                         aclOpExecutor* executor, aclrtStream stream);

// Records a refusal found before the operator's own phase 1 (a bad attribute) and returns
// its code.
aclnnStatus RefuseAttribute(const Status& s);

}  // namespace capi
}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_C_API_H_
