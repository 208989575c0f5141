// The scalar parameters' values by name, and each operator's struct filled from them
// (kernels/params.h). Phase 1 only: once per executor, never per tile.

#include "kernels/params.h"

#include <cstring>
#include <type_traits>

namespace hostnn {
namespace kernels {

int ParamValues::Index(const char* name) const {
  const OpInfo& info = GetOpInfo(op_);
  for (int k = 0; k < info.num_scalars(); ++k) {
    if (std::strcmp(info.scalars[k].name, name) == 0) {
      read_ |= 1u << k;
      return k;
    }
  }
  asked_unlisted_ = true;
  return -1;
}

float ParamValues::Number(const char* name) const {
  const int k = Index(name);
  return k < 0 ? 0.0f : numbers_[k];
}

int64_t ParamValues::Exact(const char* name) const {
  const int k = Index(name);
  return k < 0 ? 0 : exact_[k];
}

bool ParamValues::ReadAll() const {
  const int n = GetOpInfo(op_).num_scalars();
  return read_ == (1u << n) - 1u;
}

// An operator with scalar parameters reads them by name through its struct: with NoParams
// its executor would read zeros.
#define HOSTNN_OP(Name, ...)                                                \
  static_assert(GetOpInfo(Op::k##Name).num_scalars() == 0 ||                \
                    !std::is_same_v<ParamsOf<Op::k##Name>::type, NoParams>, \
                #Name " has scalar parameters but no params struct (ParamsOf)");
#include "hostnn/op_list.def"
#undef HOSTNN_OP

OpParams InitParams(Op op, const ParamValues& v) {
  switch (op) {
#define HOSTNN_OP(Name, ...) \
  case Op::k##Name:          \
    return MakeParams<ParamsOf<Op::k##Name>::type>(v);
#include "hostnn/op_list.def"
#undef HOSTNN_OP
  }
  return OpParams{};  // not an operator
}

namespace {
template <class P, class = void>
struct HasAltForm : std::false_type {};
template <class P>
struct HasAltForm<P, std::void_t<decltype(P::alt_form)>> : std::true_type {};

template <class P>
bool AltFormOf(const OpParams& p) {
  if constexpr (HasAltForm<P>::value) {
    return p.As<P>().alt_form;
  } else {
    return false;
  }
}
}  // namespace

bool PicksAltForm(Op op, const OpParams& p) {
  switch (op) {
#define HOSTNN_OP(Name, ...) \
  case Op::k##Name:          \
    return AltFormOf<ParamsOf<Op::k##Name>::type>(p);
#include "hostnn/op_list.def"
#undef HOSTNN_OP
  }
  return false;
}

}  // namespace kernels
}  // namespace hostnn
