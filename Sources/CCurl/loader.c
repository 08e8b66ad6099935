// Loads libcurl on Linux when the remote cache first needs it: see CCurl.h.
#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "CCurl.h"


static duet_curl_table duet_curl_functions;
static pthread_once_t duet_curl_once = PTHREAD_ONCE_INIT;

static void duet_curl_load(void) {
  duet_curl_table *t = &duet_curl_functions;
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    snprintf(t->error, sizeof t->error, "%s", why ? why : "cannot load libcurl.so.4");
    return;
  }
#define DUET_CURL_FIND(field, name) \
  if ((*(void **)&t->field = dlsym(library, name)) == NULL) { \
    snprintf(t->error, sizeof t->error, "libcurl.so.4 has no %s", name); return; }
  DUET_CURL_FIND(global_init, "curl_global_init")
  DUET_CURL_FIND(easy_init, "curl_easy_init")
  DUET_CURL_FIND(easy_cleanup, "curl_easy_cleanup")
  DUET_CURL_FIND(easy_reset, "curl_easy_reset")
  DUET_CURL_FIND(easy_strerror, "curl_easy_strerror")
  DUET_CURL_FIND(easy_setopt, "curl_easy_setopt")
  DUET_CURL_FIND(easy_getinfo, "curl_easy_getinfo")
  DUET_CURL_FIND(multi_init, "curl_multi_init")
  DUET_CURL_FIND(multi_cleanup, "curl_multi_cleanup")
  DUET_CURL_FIND(multi_setopt, "curl_multi_setopt")
  DUET_CURL_FIND(multi_add_handle, "curl_multi_add_handle")
  DUET_CURL_FIND(multi_remove_handle, "curl_multi_remove_handle")
  DUET_CURL_FIND(multi_perform, "curl_multi_perform")
  DUET_CURL_FIND(multi_poll, "curl_multi_poll")
  DUET_CURL_FIND(multi_info_read, "curl_multi_info_read")
  DUET_CURL_FIND(slist_append, "curl_slist_append")
  DUET_CURL_FIND(slist_free_all, "curl_slist_free_all")
#undef DUET_CURL_FIND
  t->loaded = 1;
}

duet_curl_table *duet_curl(void) {
  pthread_once(&duet_curl_once, duet_curl_load);
  return &duet_curl_functions;
}

#endif

// (A translation unit must declare something, on macOS too, where the above is empty.)
typedef int duet_curl_loader_unit;
