-- The pbench store, schema version 12. Typed columns for what is queried; every result document
-- is also kept whole beside them (compressed: packed, with its head readable as JSON). The version lives in PRAGMA user_version and is checked at open.
-- The metric catalogue and the views that answer from these tables are in store_views.sql.
PRAGMA foreign_keys = ON;

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- Where rows brought in by `pbench store merge` were made: the store file (its absolute path
-- when merged) and the cluster (its sweep's). Every table below has origin_id: NULL for a row
-- made in this store, else its origin (a row merged from a store that had merged it keeps
-- the first origin).
CREATE TABLE origins (
  id        INTEGER PRIMARY KEY,
  store     TEXT NOT NULL,
  cluster   TEXT NOT NULL,
  merged_at TEXT NOT NULL,
  UNIQUE (store, cluster)
);

-- A named sweep: its specification (canonical JSON) and the directory of its job scripts.
-- cluster: the site profile's [machine] cluster it was made with (NULL: none stated; a sweep
-- merged from another store has one: docs/store.md, "Many machines, one store"); base_name:
-- its name in the store it was made in (a sweep renamed NAME@CLUSTER by merge keeps NAME).
CREATE TABLE sweeps (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  spec_json  TEXT NOT NULL,
  scheduler  TEXT NOT NULL,
  directory  TEXT NOT NULL,
  created_at TEXT NOT NULL,
  cluster    TEXT,
  base_name  TEXT,
  origin_id  INTEGER REFERENCES origins(id)
);

-- One cell of a sweep's grid. point_key is a stable hash of the point's parameters. nodes and
-- procs_per_node: the shape asked for, NxP (--partitions 2x2); both NULL for a plain partition,
-- which the scheduler places. (No comments inside a CREATE TABLE: SQLite's DROP COLUMN rewrites
-- its text and fails on them.)
CREATE TABLE points (
  id          INTEGER PRIMARY KEY,
  sweep_id    INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
  point_key   TEXT NOT NULL,
  worker      TEXT NOT NULL,
  partition   INTEGER NOT NULL CHECK (partition > 0),
  params_json TEXT NOT NULL,
  script_path TEXT NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('planned', 'queued', 'running', 'done', 'failed',
                                             'cancelled', 'timeout')),
  nodes          INTEGER CHECK (nodes IS NULL OR nodes > 0),
  procs_per_node INTEGER CHECK (procs_per_node IS NULL OR procs_per_node > 0),
  origin_id      INTEGER REFERENCES origins(id),
  UNIQUE (sweep_id, point_key)
);
CREATE INDEX points_by_sweep ON points (sweep_id, state);

-- The runs of a sweep over time: run 1 is made with the sweep, `pbench run/submit NAME --again`
-- adds the next one and runs every point again. The envelope (JSON) says what it ran with:
-- pbench_version, git_describe, and, once collected, the hosts and MPI versions of its jobs.
CREATE TABLE runs (
  id         INTEGER PRIMARY KEY,
  sweep_id   INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
  run_no     INTEGER NOT NULL CHECK (run_no > 0),
  started_at TEXT NOT NULL,
  envelope   TEXT NOT NULL,
  origin_id  INTEGER REFERENCES origins(id),
  UNIQUE (sweep_id, run_no)
);

-- Every submission of a point is kept; the newest attempt decides the point's state.
CREATE TABLE attempts (
  id           INTEGER PRIMARY KEY,
  point_id     INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,
  attempt_no   INTEGER NOT NULL,
  job_id       TEXT,
  native_state TEXT,
  state        TEXT NOT NULL,
  submitted_at TEXT,
  started_at   TEXT,
  ended_at     TEXT,
  exit_status  INTEGER,
  signal       TEXT,
  job_dir      TEXT NOT NULL,
  stdout_path  TEXT NOT NULL,
  stderr_path  TEXT NOT NULL,
  result_path  TEXT NOT NULL,
  stderr_tail  TEXT,
  run_no       INTEGER NOT NULL DEFAULT 1,
  origin_id    INTEGER REFERENCES origins(id),
  UNIQUE (point_id, attempt_no)
);

-- One ingested result document, stored once (document_hash is the hash of its canonical form).
-- Where its ranks ran (store/ResultLayout.hpp), from the document's rank_hosts: nodes (distinct
-- hosts), procs_per_node (ranks on the fullest host), node_list (the hosts comma-separated in
-- rank order); allocated_nodes: the job's node list from its envelope, expanded; placement: why
-- the ranks did not run in the shape the point asked for (NULL when they did; valid is 0 then);
-- ingest_reason: why ingest holds a figure of the result impossible, whatever the document says
-- ("physically impossible: g = -1 us is not positive": the metric catalogue's bounds; NULL when
-- every figure can be; valid is 0 then). packed: the document's canonical text (the text its
-- document_hash is the SHA-256 of) as one zstd frame; head: the document without its
-- measurements and summary, as JSON text, what the views read (store/PackedDocument.hpp).
CREATE TABLE results (
  id             INTEGER PRIMARY KEY,
  point_id       INTEGER REFERENCES points(id) ON DELETE CASCADE,
  attempt_id     INTEGER REFERENCES attempts(id) ON DELETE SET NULL,
  document_hash  TEXT NOT NULL UNIQUE,
  schema_version INTEGER NOT NULL,
  worker         TEXT NOT NULL,
  worker_version TEXT NOT NULL,
  nprocs         INTEGER NOT NULL,
  valid          INTEGER NOT NULL,
  started_at     TEXT NOT NULL,
  ended_at       TEXT NOT NULL,
  ingested_at    TEXT NOT NULL,
  run_no         INTEGER NOT NULL DEFAULT 1,
  nodes           INTEGER,
  procs_per_node  INTEGER,
  node_list       TEXT,
  allocated_nodes TEXT,
  placement       TEXT,
  ingest_reason   TEXT,
  head            TEXT NOT NULL,
  packed          BLOB NOT NULL,
  origin_id       INTEGER REFERENCES origins(id)
);
-- Covering for "the newest result of a point and whether it is valid" (the queries' first step),
-- so that they never read the large documents.
CREATE INDEX results_by_point ON results (point_id, id, valid);
-- collect asks, for each finished point, whether its attempt has a result already.
CREATE INDEX results_by_attempt ON results (attempt_id);
-- "The newest result of a point in the chosen run" (store::kChosenResult).
CREATE INDEX results_by_point_run ON results (point_id, run_no, id);

-- The summary metrics of a result, one row each; labels (JSON object) say which point
-- (queue depth, pair, message size, ...).
CREATE TABLE metrics (
  id        INTEGER PRIMARY KEY,
  result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  value     REAL,
  unit      TEXT NOT NULL,
  samples   INTEGER NOT NULL,
  labels    TEXT NOT NULL
);
-- Covering for "metric NAME of result R": value and labels come from the index, whose entries
-- for one name lie together, instead of one table page per row (the maxima query,
-- bench/README.md).
CREATE INDEX metrics_by_name ON metrics (name, result_id, value, labels);
CREATE INDEX metrics_by_result ON metrics (result_id);
