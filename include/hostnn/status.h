// Status values of the native C++ API. Codes are CANN's aclnn codes, so the C API passes
// them through unchanged. Errors are values, never exceptions.
#ifndef HOSTNN_STATUS_H_
#define HOSTNN_STATUS_H_

#include <cstdint>
#include <string>
#include <utility>

namespace hostnn {

enum class StatusCode : int32_t {
  kOk = 0,
  kNullptr = 161001,  // ACLNN_ERR_PARAM_NULLPTR
  kInvalid = 161002,  // ACLNN_ERR_PARAM_INVALID
  kRuntime = 361001,  // ACLNN_ERR_RUNTIME_ERROR
  kInner = 561000,    // ACLNN_ERR_INNER
  kInnerTiling = 561002,  // ACLNN_ERR_INNER_TILING_ERROR: what CANN's kernel tiling refuses
                          // (GeluMul's limits: docs/activation_family3.md)
};

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }
  static Status Nullptr(std::string m) { return Status(StatusCode::kNullptr, std::move(m)); }
  static Status Invalid(std::string m) { return Status(StatusCode::kInvalid, std::move(m)); }
  static Status Runtime(std::string m) { return Status(StatusCode::kRuntime, std::move(m)); }
  static Status Inner(std::string m) { return Status(StatusCode::kInner, std::move(m)); }
  static Status InnerTiling(std::string m) {
    return Status(StatusCode::kInnerTiling, std::move(m));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  int32_t raw_code() const { return static_cast<int32_t>(code_); }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

#define HOSTNN_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::hostnn::Status hostnn_status_ = (expr);        \
    if (!hostnn_status_.ok()) return hostnn_status_; \
  } while (0)

}  // namespace hostnn

#endif  // HOSTNN_STATUS_H_
