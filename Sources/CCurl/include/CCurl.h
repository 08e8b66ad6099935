#pragma once
#include <curl/curl.h>

// On Linux libcurl is loaded when the remote cache first needs it, not when
// duet starts: linked, it and the ~25 libraries it needs (GnuTLS, Kerberos,
// LDAP, ...) cost every duet process 4 ms of loading and relocation, a third
// of its start (issue 42, item 6). Every curl function below goes through
// `duet_curl()`, the table `dlsym` fills once; a machine without libcurl runs
// duet, and only a remote cache says what is missing. On macOS libcurl is in
// the system's shared cache and is linked as usual.
#if defined(__linux__)
typedef struct {
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *);
  void (*easy_reset)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_cleanup)(CURLM *);
  CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
  CURLMcode (*multi_add_handle)(CURLM *, CURL *);
  CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
  CURLMcode (*multi_perform)(CURLM *, int *);
  CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
  CURLMsg *(*multi_info_read)(CURLM *, int *);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  /// Why libcurl could not be loaded; empty when it was.
  char error[512];
  int loaded;
} duet_curl_table;

/// The functions, loaded on the first call (once, thread-safely, in
/// loader.c); `loaded` is 0, and `error` says why, when libcurl is missing.
duet_curl_table *duet_curl(void);

#define DUET_CURL(name) (duet_curl()->name)
#else
#define DUET_CURL(name) (curl_##name)
#endif

/// Why libcurl could not be loaded, or NULL when it is there.
static inline const char *duet_curl_missing(void) {
#if defined(__linux__)
  return duet_curl()->loaded ? NULL : duet_curl()->error;
#else
  return NULL;
#endif
}

// Swift cannot call C's variadic functions, and libcurl's setters
// (curl_easy_setopt, curl_easy_getinfo, curl_multi_setopt) are variadic: each
// wrapper below fixes one argument type. Macros Swift does not import (casts,
// shifts) are given as functions too. Only DuetCache imports this module.

/// A body callback: CURLOPT_WRITEFUNCTION and CURLOPT_READFUNCTION share this shape.
typedef size_t (*duet_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode duet_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return DUET_CURL(easy_setopt)(handle, option, value);
}

static inline CURLcode duet_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return DUET_CURL(easy_setopt)(handle, option, value);
}

static inline CURLcode duet_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return DUET_CURL(easy_setopt)(handle, option, value);
}

static inline CURLcode duet_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return DUET_CURL(easy_setopt)(handle, option, value);
}

static inline CURLcode duet_curl_setopt_callback(CURL *handle, CURLoption option, duet_curl_data_callback value) {
  return DUET_CURL(easy_setopt)(handle, option, value);
}

static inline CURLcode duet_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
  return DUET_CURL(easy_setopt)(handle, option, value);
}

static inline CURLcode duet_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return DUET_CURL(easy_getinfo)(handle, info, value);
}

static inline CURLcode duet_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
  return DUET_CURL(easy_getinfo)(handle, info, value);
}

static inline CURLMcode duet_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return DUET_CURL(multi_setopt)(multi, option, value);
}

/// The next finished transfer of `multi`: 1 with its handle and result, or 0
/// when none is waiting (CURLMsg's union is awkward from Swift).
static inline int duet_curl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
  int queued = 0;
  CURLMsg *message;
  while ((message = DUET_CURL(multi_info_read)(multi, &queued)) != NULL) {
    if (message->msg == CURLMSG_DONE) {
      *handle = message->easy_handle;
      *result = message->data.result;
      return 1;
    }
  }
  return 0;
}

static inline CURLcode duet_curl_global_init(void) {
  if (duet_curl_missing() != NULL) return CURLE_FAILED_INIT;
  return DUET_CURL(global_init)(CURL_GLOBAL_DEFAULT);
}

static inline long duet_curlauth_basic(void) { return (long)CURLAUTH_BASIC; }

static inline size_t duet_curl_readfunc_abort(void) { return CURL_READFUNC_ABORT; }

static inline int duet_curl_error_size(void) { return CURL_ERROR_SIZE; }

// The rest of libcurl that DuetCache calls, through the same table.
static inline CURL *duet_curl_easy_init(void) { return DUET_CURL(easy_init)(); }
static inline void duet_curl_easy_cleanup(CURL *handle) { DUET_CURL(easy_cleanup)(handle); }
static inline void duet_curl_easy_reset(CURL *handle) { DUET_CURL(easy_reset)(handle); }
static inline const char *duet_curl_easy_strerror(CURLcode code) { return DUET_CURL(easy_strerror)(code); }
static inline CURLM *duet_curl_multi_init(void) { return DUET_CURL(multi_init)(); }
static inline CURLMcode duet_curl_multi_cleanup(CURLM *multi) { return DUET_CURL(multi_cleanup)(multi); }
static inline CURLMcode duet_curl_multi_add_handle(CURLM *multi, CURL *handle) { return DUET_CURL(multi_add_handle)(multi, handle); }
static inline CURLMcode duet_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return DUET_CURL(multi_remove_handle)(multi, handle); }
static inline CURLMcode duet_curl_multi_perform(CURLM *multi, int *running) { return DUET_CURL(multi_perform)(multi, running); }
static inline CURLMcode duet_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready) {
  return DUET_CURL(multi_poll)(multi, extra, count, timeout, ready);
}
static inline struct curl_slist *duet_curl_slist_append(struct curl_slist *list, const char *text) { return DUET_CURL(slist_append)(list, text); }
static inline void duet_curl_slist_free_all(struct curl_slist *list) { DUET_CURL(slist_free_all)(list); }
