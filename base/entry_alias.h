// HOSTNN_ENTRY_ALIAS(name): gives the C entry point `name`, defined just above in the same
// file, a second exported name, hostnn_entry_<name>, for the same code. The CANN-named
// libraries (src/cann/) define `name` themselves and forward to hostnn_entry_<name>, which
// only libhostnn defines, so a call can never land back in a forwarder.
#ifndef HOSTNN_BASE_ENTRY_ALIAS_H_
#define HOSTNN_BASE_ENTRY_ALIAS_H_

#define HOSTNN_ENTRY_ALIAS(name) \
  extern "C"                     \
      __attribute__((alias(#name), visibility("default"))) decltype(name) hostnn_entry_##name;

#endif  // HOSTNN_BASE_ENTRY_ALIAS_H_
