/* One CANN-named library (libascendcl, libnnopbase, libopapi, libopapi_nn or
 * libopapi_math): compiled once per library with HOSTNN_CANN_LIB_<NAME> defined, it
 * defines that library's entry points from exports.def, each forwarding to libhostnn's
 * hostnn_entry_<name>. It keeps no state: every library of the tree shares libhostnn's
 * one runtime (devices, streams, allocations, executors, error messages). Everything
 * else is hidden (-fvisibility=hidden), so the library exports exactly its list. */
#include "acl/acl.h"
#include "hostnn/aclnnop_all.h" /* every operator header (cmake/op_list.cmake) */
#include "src/aclnn/signatures.h"

/* The declaration comes from the public headers above, so a forwarder whose signature
 * drifts from it does not compile. */
#define HOSTNN_CANN_FORWARD(ret, name, params, args) \
  extern ret hostnn_entry_##name params;             \
  ACL_FUNC_VISIBILITY ret name params { return hostnn_entry_##name args; }
#define HOSTNN_CANN_SKIP(ret, name, params, args)

#if defined(HOSTNN_CANN_LIB_ASCENDCL)
#define HOSTNN_CANN_EXPORT_ASCENDCL HOSTNN_CANN_FORWARD
#else
#define HOSTNN_CANN_EXPORT_ASCENDCL HOSTNN_CANN_SKIP
#endif
#if defined(HOSTNN_CANN_LIB_NNOPBASE)
#define HOSTNN_CANN_EXPORT_NNOPBASE HOSTNN_CANN_FORWARD
#else
#define HOSTNN_CANN_EXPORT_NNOPBASE HOSTNN_CANN_SKIP
#endif
#if defined(HOSTNN_CANN_LIB_OPAPI) || defined(HOSTNN_CANN_LIB_OPAPI_NN)
#define HOSTNN_CANN_EXPORT_OPAPI HOSTNN_CANN_FORWARD
#else
#define HOSTNN_CANN_EXPORT_OPAPI HOSTNN_CANN_SKIP
#endif
/* libopapi_math: CANN's math operators; hostnn has none, so it defines nothing. */

#define HOSTNN_CANN_EXPORT(library, ret, name, params, args) \
  HOSTNN_CANN_EXPORT_##library(ret, name, params, args)
#include "src/cann/exports.def"
#undef HOSTNN_CANN_EXPORT
