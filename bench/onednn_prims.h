// oneDNN primitive descriptors built one way for both of oneDNN's C++ APIs: 2.x builds
// them from operation descriptors (dnnl::eltwise_forward::desc, as Debian's libdnnl-dev 2.6
// has it), 3.x takes the same arguments in the primitive descriptor itself and folds
// LogSoftmax into softmax with algorithm::softmax_log. hostnn_bench_onednn compiles against
// either. Benchmark code only.
#ifndef HOSTNN_BENCH_ONEDNN_PRIMS_H_
#define HOSTNN_BENCH_ONEDNN_PRIMS_H_

#include <string>

#include "oneapi/dnnl/dnnl.hpp"

namespace hostnn {
namespace bench {

// src and dst share one descriptor: every case is dense and of one dtype.
inline dnnl::eltwise_forward::primitive_desc EltwiseForwardPd(const dnnl::engine& engine,
                                                              dnnl::prop_kind prop,
                                                              dnnl::algorithm alg,
                                                              const dnnl::memory::desc& md,
                                                              float alpha, float beta) {
#if DNNL_VERSION_MAJOR >= 3
  return dnnl::eltwise_forward::primitive_desc(engine, prop, alg, md, md, alpha, beta);
#else
  return dnnl::eltwise_forward::primitive_desc(
      dnnl::eltwise_forward::desc(prop, alg, md, alpha, beta), engine);
#endif
}

// The backward primitive of alg, with the training forward as oneDNN's hint. `md` is
// diff_src, diff_dst and the data tensor (src, or dst for the *_use_dst_for_bwd algorithms).
inline dnnl::eltwise_backward::primitive_desc EltwiseBackwardPd(const dnnl::engine& engine,
                                                                dnnl::algorithm alg,
                                                                const dnnl::memory::desc& md,
                                                                float alpha, float beta) {
  const auto hint =
      EltwiseForwardPd(engine, dnnl::prop_kind::forward_training, alg, md, alpha, beta);
#if DNNL_VERSION_MAJOR >= 3
  return dnnl::eltwise_backward::primitive_desc(engine, alg, md, md, md, alpha, beta, hint);
#else
  return dnnl::eltwise_backward::primitive_desc(
      dnnl::eltwise_backward::desc(alg, md, md, alpha, beta), engine, hint);
#endif
}

// A softmax primitive along axis (`log`: LogSoftmax's; `backward`: its backward, whose `md`
// is diff_src, diff_dst and dst; the forward's src and dst). Sets the primitive and returns
// oneDNN's implementation name.
inline std::string SoftmaxPrimitive(const dnnl::engine& engine, const dnnl::memory::desc& md,
                                    int axis, bool log, bool backward,
                                    dnnl::primitive* primitive) {
#if DNNL_VERSION_MAJOR >= 3
  const dnnl::algorithm alg =
      log ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate;
  const dnnl::softmax_forward::primitive_desc fwd(
      engine, backward ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference,
      alg, md, md, axis);
  if (!backward) {
    *primitive = dnnl::softmax_forward(fwd);
    return fwd.impl_info_str();
  }
  const dnnl::softmax_backward::primitive_desc pd(engine, alg, md, md, md, axis, fwd);
  *primitive = dnnl::softmax_backward(pd);
  return pd.impl_info_str();
#else
  const dnnl::prop_kind kind =
      backward ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
  if (log) {
    const dnnl::logsoftmax_forward::primitive_desc fwd(
        dnnl::logsoftmax_forward::desc(kind, md, axis), engine);
    if (!backward) {
      *primitive = dnnl::logsoftmax_forward(fwd);
      return fwd.impl_info_str();
    }
    const dnnl::logsoftmax_backward::primitive_desc pd(
        dnnl::logsoftmax_backward::desc(md, md, axis), engine, fwd);
    *primitive = dnnl::logsoftmax_backward(pd);
    return pd.impl_info_str();
  }
  const dnnl::softmax_forward::primitive_desc fwd(dnnl::softmax_forward::desc(kind, md, axis),
                                                  engine);
  if (!backward) {
    *primitive = dnnl::softmax_forward(fwd);
    return fwd.impl_info_str();
  }
  const dnnl::softmax_backward::primitive_desc pd(dnnl::softmax_backward::desc(md, md, axis),
                                                  engine, fwd);
  *primitive = dnnl::softmax_backward(pd);
  return pd.impl_info_str();
#endif
}

}  // namespace bench
}  // namespace hostnn

#endif  // HOSTNN_BENCH_ONEDNN_PRIMS_H_
