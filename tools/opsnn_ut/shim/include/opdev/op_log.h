// Harness shim: the op_api logging macros, printing to stderr.
#ifndef HOSTNN_OPSNN_UT_OPDEV_OP_LOG_H_
#define HOSTNN_OPSNN_UT_OPDEV_OP_LOG_H_

#include <cstdio>

#define HOSTNN_UT_LOG_(level, ...)            \
  do {                                        \
    std::fprintf(stderr, "[%s] ", level);     \
    std::fprintf(stderr, __VA_ARGS__);        \
    std::fprintf(stderr, "\n");               \
  } while (0)
#define OP_LOGE(op_name, ...) HOSTNN_UT_LOG_("E", __VA_ARGS__)
#define OP_LOGW(op_name, ...) HOSTNN_UT_LOG_("W", __VA_ARGS__)
#define OP_LOGI(op_name, ...) HOSTNN_UT_LOG_("I", __VA_ARGS__)
#define OP_LOGD(op_name, ...) HOSTNN_UT_LOG_("D", __VA_ARGS__)

#endif  // HOSTNN_OPSNN_UT_OPDEV_OP_LOG_H_
