/*
 * mongo-classics · the compiled client: calibration-ops.js's loops in C, on libmongoc (Debian's
 * libmongoc-dev), so the kit's shell can be put beside a client that costs what the articles'
 * clients cost (the 2.4 shell's C++ client, PHP's C extension, pymongo's C extension).
 *
 * The same operations in the same order as calibration-ops.js and calibration-driver.js: WARMUP
 * untimed rounds of insert, find, update and remove by _id, then OPS timed operations of each
 * type, with a monotonic clock read around each call (as performance.now() around each call in
 * the scripts) and the process's CPU time (user + system) around each loop. Each call builds
 * its documents inside the clock, as a script's object literals are built inside it. The find
 * is a find with limit 1 whose cursor is read once, as mongosh's findOne.
 *
 * usage: calibration OPS WARMUP DB_NAME   (the URI in CLASSICS_SHELL_URI, as the shells get it)
 * prints: {"scenario":"harness","ops":N,"totalMs":{...},"cpuUs":{...}}
 * built by bench/compiled-client.js: cc -O2 calibration.c $(pkg-config --cflags --libs libmongoc-1.0)
 */
#include <mongoc/mongoc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double cpu_us(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

static void fail(const char *what, const bson_error_t *error) {
  fprintf(stderr, "CompiledClientError: %s: %s\n", what, error->message);
  exit(1);
}

static void insert_op(mongoc_collection_t *coll, int id) {
  bson_error_t error;
  bson_t *doc = BCON_NEW("_id", BCON_INT32(id), "foo", "[", BCON_INT32(1), BCON_INT32(2), BCON_INT32(3), BCON_INT32(4), BCON_INT32(5), "]");
  if (!mongoc_collection_insert_one(coll, doc, NULL, NULL, &error)) fail("insert", &error);
  bson_destroy(doc);
}

static void find_op(mongoc_collection_t *coll, int id) {
  bson_error_t error;
  const bson_t *found;
  bson_t *filter = BCON_NEW("_id", BCON_INT32(id));
  bson_t *opts = BCON_NEW("limit", BCON_INT64(1));
  mongoc_cursor_t *cursor = mongoc_collection_find_with_opts(coll, filter, opts, NULL);
  mongoc_cursor_next(cursor, &found);
  if (mongoc_cursor_error(cursor, &error)) fail("find", &error);
  mongoc_cursor_destroy(cursor);
  bson_destroy(opts);
  bson_destroy(filter);
}

static void update_op(mongoc_collection_t *coll, int id) {
  bson_error_t error;
  bson_t *selector = BCON_NEW("_id", BCON_INT32(id));
  bson_t *update = BCON_NEW("$push", "{", "foo", "{", "$each", "[", BCON_INT32(6), BCON_INT32(7), "]", "}", "}");
  if (!mongoc_collection_update_one(coll, selector, update, NULL, NULL, &error)) fail("update", &error);
  bson_destroy(update);
  bson_destroy(selector);
}

static void remove_op(mongoc_collection_t *coll, int id) {
  bson_error_t error;
  bson_t *selector = BCON_NEW("_id", BCON_INT32(id));
  if (!mongoc_collection_delete_one(coll, selector, NULL, NULL, &error)) fail("remove", &error);
  bson_destroy(selector);
}

int main(int argc, char **argv) {
  if (argc != 4 || !getenv("CLASSICS_SHELL_URI")) {
    fprintf(stderr, "usage: CLASSICS_SHELL_URI=mongodb://... %s OPS WARMUP DB_NAME\n", argv[0]);
    return 2;
  }
  int ops = atoi(argv[1]);
  int warmup = atoi(argv[2]);
  bson_error_t error;
  mongoc_init();
  mongoc_uri_t *uri = mongoc_uri_new_with_error(getenv("CLASSICS_SHELL_URI"), &error);
  if (!uri) fail("uri", &error);
  mongoc_client_t *client = mongoc_client_new_from_uri_with_error(uri, &error);
  if (!client) fail("client", &error);
  mongoc_client_set_error_api(client, MONGOC_ERROR_API_VERSION_2);
  mongoc_database_t *db = mongoc_client_get_database(client, argv[3]);
  mongoc_collection_t *coll = mongoc_client_get_collection(client, argv[3], "ops");
  mongoc_collection_drop(coll, &error); /* a missing collection is no error here */
  mongoc_collection_t *created = mongoc_database_create_collection(db, "ops", NULL, &error);
  if (!created) fail("create", &error);
  mongoc_collection_destroy(created);

  for (int w = 0; w < warmup; w++) {
    insert_op(coll, -1 - w);
    find_op(coll, -1 - w);
    update_op(coll, -1 - w);
    remove_op(coll, -1 - w);
  }

  void (*calls[4])(mongoc_collection_t *, int) = {insert_op, find_op, update_op, remove_op};
  const char *names[4] = {"insert", "find", "update", "remove"};
  double total_ms[4] = {0}, cpu[4] = {0};
  for (int t = 0; t < 4; t++) {
    double c0 = cpu_us();
    for (int i = 0; i < ops; i++) {
      double t0 = now_ms();
      calls[t](coll, i);
      total_ms[t] += now_ms() - t0;
    }
    cpu[t] = cpu_us() - c0;
  }
  printf("{\"scenario\":\"harness\",\"ops\":%d,\"totalMs\":{", ops);
  for (int t = 0; t < 4; t++) printf("%s\"%s\":%.6f", t ? "," : "", names[t], total_ms[t]);
  printf("},\"cpuUs\":{");
  for (int t = 0; t < 4; t++) printf("%s\"%s\":%.0f", t ? "," : "", names[t], cpu[t]);
  printf("}}\n");

  mongoc_collection_destroy(coll);
  mongoc_database_destroy(db);
  mongoc_client_destroy(client);
  mongoc_uri_destroy(uri);
  mongoc_cleanup();
  return 0;
}
