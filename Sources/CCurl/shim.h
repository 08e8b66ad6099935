#pragma once
#include <curl/curl.h>

// Swift cannot call C's variadic functions, and libcurl's setters
// (curl_easy_setopt, curl_easy_getinfo, curl_multi_setopt) are variadic: each
// wrapper below fixes one argument type. Macros Swift does not import (casts,
// shifts) are given as functions too. Only DuetCache imports this module.

/// A body callback: CURLOPT_WRITEFUNCTION and CURLOPT_READFUNCTION share this shape.
typedef size_t (*duet_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode duet_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode duet_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode duet_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode duet_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode duet_curl_setopt_callback(CURL *handle, CURLoption option, duet_curl_data_callback value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode duet_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode duet_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode duet_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode duet_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

/// The next finished transfer of `multi`: 1 with its handle and result, or 0
/// when none is waiting (CURLMsg's union is awkward from Swift).
static inline int duet_curl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
  int queued = 0;
  CURLMsg *message;
  while ((message = curl_multi_info_read(multi, &queued)) != NULL) {
    if (message->msg == CURLMSG_DONE) {
      *handle = message->easy_handle;
      *result = message->data.result;
      return 1;
    }
  }
  return 0;
}

static inline CURLcode duet_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

static inline long duet_curlauth_basic(void) { return (long)CURLAUTH_BASIC; }

static inline size_t duet_curl_readfunc_abort(void) { return CURL_READFUNC_ABORT; }

static inline int duet_curl_error_size(void) { return CURL_ERROR_SIZE; }
