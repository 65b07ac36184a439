#include "CLibCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *numfds);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static const char *load_result = load_error;

#if defined(__APPLE__)
static const char *const library_names[] = {"libcurl.4.dylib", "/usr/lib/libcurl.4.dylib"};
#else
// The OpenSSL build first (Debian's libcurl4), then the GnuTLS one (libcurl3-gnutls):
// both have libcurl's ABI 4.
static const char *const library_names[] = {"libcurl.so.4", "libcurl-gnutls.so.4"};
#endif

static int resolve(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (*slot == NULL) {
        snprintf(load_error, sizeof load_error, "the libcurl found lacks %s", name);
        return 0;
    }
    return 1;
}

static void load(void) {
    void *library = NULL;
    for (size_t i = 0; i < sizeof library_names / sizeof *library_names && library == NULL; i++) {
        library = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "cannot load libcurl (install libcurl4): %s", dlerror());
        return;
    }
    int ok = resolve(library, "curl_global_init", (void **)&curl.global_init)
        && resolve(library, "curl_easy_init", (void **)&curl.easy_init)
        && resolve(library, "curl_easy_cleanup", (void **)&curl.easy_cleanup)
        && resolve(library, "curl_easy_reset", (void **)&curl.easy_reset)
        && resolve(library, "curl_easy_getinfo", (void **)&curl.easy_getinfo)
        && resolve(library, "curl_easy_strerror", (void **)&curl.easy_strerror)
        && resolve(library, "curl_easy_setopt", (void **)&curl.easy_setopt)
        && resolve(library, "curl_slist_append", (void **)&curl.slist_append)
        && resolve(library, "curl_slist_free_all", (void **)&curl.slist_free_all)
        && resolve(library, "curl_multi_init", (void **)&curl.multi_init)
        && resolve(library, "curl_multi_cleanup", (void **)&curl.multi_cleanup)
        && resolve(library, "curl_multi_add_handle", (void **)&curl.multi_add_handle)
        && resolve(library, "curl_multi_remove_handle", (void **)&curl.multi_remove_handle)
        && resolve(library, "curl_multi_perform", (void **)&curl.multi_perform)
        && resolve(library, "curl_multi_poll", (void **)&curl.multi_poll)
        && resolve(library, "curl_multi_wakeup", (void **)&curl.multi_wakeup)
        && resolve(library, "curl_multi_info_read", (void **)&curl.multi_info_read);
    if (!ok) return;
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl failed to start: %s", curl.easy_strerror(code));
        return;
    }
    load_result = NULL;
}

const char *zinc_curl_load(void) {
    pthread_once(&load_once, load);
    return load_result;
}

CURL *zinc_curl_easy_init(void) { return curl.easy_init(); }
void zinc_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
void zinc_curl_easy_reset(CURL *handle) { curl.easy_reset(handle); }

CURLcode zinc_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}
const char *zinc_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode zinc_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode zinc_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode zinc_curl_setopt_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl.easy_setopt(handle, option, callback);
}

struct curl_slist *zinc_curl_slist_append(struct curl_slist *list, const char *string) {
    return curl.slist_append(list, string);
}

void zinc_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

struct zinc_curl_transfer {
    CURLM *multi;
    atomic_bool stopped;
};

zinc_curl_transfer *zinc_curl_transfer_new(void) {
    zinc_curl_transfer *transfer = calloc(1, sizeof *transfer);
    if (transfer == NULL) return NULL;
    transfer->multi = curl.multi_init();
    if (transfer->multi == NULL) {
        free(transfer);
        return NULL;
    }
    atomic_init(&transfer->stopped, false);
    return transfer;
}

void zinc_curl_transfer_free(zinc_curl_transfer *transfer) {
    curl.multi_cleanup(transfer->multi);
    free(transfer);
}

void zinc_curl_transfer_rearm(zinc_curl_transfer *transfer) { atomic_store(&transfer->stopped, false); }

CURLcode zinc_curl_transfer_perform(zinc_curl_transfer *transfer, CURL *handle) {
    if (curl.multi_add_handle(transfer->multi, handle) != CURLM_OK) return CURLE_FAILED_INIT;
    CURLcode result = CURLE_OK;
    int running = 1;
    while (1) {
        if (curl.multi_perform(transfer->multi, &running) != CURLM_OK) {
            result = CURLE_FAILED_INIT;
            break;
        }
        if (running == 0) {
            int queued;
            CURLMsg *message;
            while ((message = curl.multi_info_read(transfer->multi, &queued)) != NULL) {
                if (message->msg == CURLMSG_DONE) result = message->data.result;
            }
            break;
        }
        if (atomic_load(&transfer->stopped)) {
            result = CURLE_ABORTED_BY_CALLBACK;
            break;
        }
        // The wait ends when the socket is ready, libcurl's next timeout is due, or
        // zinc_curl_transfer_stop wakes it.
        curl.multi_poll(transfer->multi, NULL, 0, 1000, NULL);
        if (atomic_load(&transfer->stopped)) {
            result = CURLE_ABORTED_BY_CALLBACK;
            break;
        }
    }
    curl.multi_remove_handle(transfer->multi, handle);
    return result;
}

void zinc_curl_transfer_stop(zinc_curl_transfer *transfer) {
    atomic_store(&transfer->stopped, true);
    curl.multi_wakeup(transfer->multi);
}
