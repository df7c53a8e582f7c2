-- The pbench store's answers, schema version 10: the metric catalogue and the views that are the
-- one definition of what pbench answers. `pbench query`, reference, check, history, export and
-- the report select from them and only format; sqlite3, Python or Grafana read the same rows
-- (docs/store.md, "Reading the store from outside"). Run on a new store after store.sql and by the
-- migration of an older one; every view is dropped and made again, so a later version changes
-- a view by changing this file.

-- Every summary metric of every worker: a copy of the one definition in the code
-- (workers/common/MetricCatalogue.cpp), rewritten whenever pbench opens the store for writing
-- and finds it different. headline: whether the metric is a headline figure of query system;
-- headline_rule: how its winner is chosen (maximum: the best of the sweep; per_shape: the best
-- per partition shape; companion: read from the result (and queue depth) that won the figure of
-- the metric companion_of: logp's G and bandwidth_at_max_size with g, o_s, o_r and L with EEL;
-- legacy: an older result's name for a headline; per_label: not in query system, gated by
-- reference and check per link or node label; no); figure: its name in query system or check;
-- figure_order: the order of the headline table; label_keys: the labels it carries.
CREATE TABLE IF NOT EXISTS metric_catalogue (
  worker        TEXT NOT NULL,
  name          TEXT NOT NULL,
  unit          TEXT NOT NULL,
  better        TEXT NOT NULL CHECK (better IN ('higher', 'lower', 'neither')),
  headline      TEXT NOT NULL CHECK (headline IN ('yes', 'no')),
  headline_rule TEXT NOT NULL,
  figure        TEXT,
  figure_order  INTEGER,
  label_keys    TEXT NOT NULL,
  meaning       TEXT NOT NULL,
  companion_of  TEXT,
  bound         TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (worker, name)
) WITHOUT ROWID;
-- The headline metrics of a worker without reading its other metrics (the candidates' join).
CREATE INDEX IF NOT EXISTS metric_catalogue_by_rule ON metric_catalogue (worker, headline_rule);

DROP VIEW IF EXISTS io_system;
DROP VIEW IF EXISTS io_table;
DROP VIEW IF EXISTS comm_table;
DROP VIEW IF EXISTS comm_rows;
DROP VIEW IF EXISTS bcast_table;
DROP VIEW IF EXISTS logp_table;
DROP VIEW IF EXISTS headlines;
DROP VIEW IF EXISTS headline_rows;
DROP VIEW IF EXISTS headline_winners;
DROP VIEW IF EXISTS headline_ranks;
DROP VIEW IF EXISTS headline_groups;
DROP VIEW IF EXISTS headline_candidates;
DROP VIEW IF EXISTS metric_values;
DROP VIEW IF EXISTS run_results;
DROP VIEW IF EXISTS result_facts;
DROP VIEW IF EXISTS sweep_runs;
DROP VIEW IF EXISTS run_origins;
DROP VIEW IF EXISTS result_settings;
DROP VIEW IF EXISTS point_envs;

-- Every run of every sweep; latest: whether it is the sweep's latest run, the one every query
-- reads unless told otherwise (--run).
CREATE VIEW sweep_runs AS
SELECT sw.id AS sweep_id, sw.name AS sweep, ru.run_no AS run, ru.started_at AS started_at,
       ru.run_no = (SELECT max(l.run_no) FROM runs l WHERE l.sweep_id = sw.id) AS latest,
       ru.envelope AS envelope
FROM sweeps sw CROSS JOIN runs ru
WHERE ru.sweep_id = sw.id;

-- Where each run of each sweep was made: in this store (store NULL) or in the store and on the
-- cluster `pbench store merge` brought it from (docs/store.md, "Many machines, one store");
-- cluster: the sweep's, 'unnamed' when its site profile stated none; base_name: the sweep's
-- name where it was made (NAME of a sweep renamed NAME@CLUSTER by merge).
CREATE VIEW run_origins AS
SELECT sw.id AS sweep_id, sw.name AS sweep, coalesce(sw.base_name, sw.name) AS base_name,
       coalesce(sw.cluster, 'unnamed') AS cluster, ru.run_no AS run, ru.started_at AS started_at,
       o.store AS store, o.merged_at AS merged_at
FROM sweeps sw CROSS JOIN runs ru LEFT JOIN origins o ON o.id = ru.origin_id
WHERE ru.sweep_id = sw.id;

-- Each point's environment: the site profile's environment of a sweep made with --envs (the
-- point parameter env); NULL without. The environment is a key of every headline, as the
-- partition shape is: each figure is won per environment.
CREATE VIEW point_envs AS
SELECT p.id AS point_id, p.sweep_id AS sweep_id, p.worker AS worker,
       CASE WHEN json_type(p.params_json, '$.env') = 'text'
            THEN json_extract(p.params_json, '$.env') END AS env
FROM points p;

-- What every stored result of a point says about itself: where its ranks ran (nodes, ppn: the
-- point's asked shape where the result does not say), the shape asked for ("2x2"; NULL for a
-- plain partition), its job, its point's MPI-IO hint set ('-' for none), its environment (the
-- site profile's environment of a sweep made with --envs: the point parameter env; NULL
-- without), and for a result that is not valid its first reason (the placement first, then a
-- figure ingest holds impossible, then the worker's own).
CREATE VIEW result_facts AS
SELECT r.id AS result_id, r.run_no AS run, p.sweep_id AS sweep_id, p.id AS point_id,
       p.point_key AS point, p.worker AS worker, p.partition AS partition,
       coalesce(r.nodes, p.nodes) AS nodes, coalesce(r.procs_per_node, p.procs_per_node) AS ppn,
       CASE WHEN p.nodes IS NULL THEN NULL ELSE p.nodes || 'x' || p.procs_per_node END AS shape,
       r.valid AS valid,
       CASE WHEN r.valid THEN NULL
            ELSE coalesce(r.placement, r.ingest_reason,
                          json_extract(r.head, '$.validity.reasons[0]')) END
         AS reason,
       (SELECT a.job_id FROM attempts a WHERE a.id = r.attempt_id) AS job,
       p.params_json AS params,
       CASE WHEN json_type(p.params_json, '$.hints') = 'text'
                 AND json_extract(p.params_json, '$.hints') <> ''
            THEN json_extract(p.params_json, '$.hints') ELSE '-' END AS hints,
       (SELECT e.env FROM point_envs e WHERE e.point_id = p.id) AS env
FROM results r JOIN points p ON p.id = r.point_id;

-- The chosen result of each point in each run: its newest result of that run (a point run again
-- in the same run, --retry-failed, supersedes its older result).
CREATE VIEW run_results AS
SELECT sr.sweep_id, sr.sweep, sr.run, sr.latest, f.point_id, f.point, f.worker, f.partition,
       f.nodes, f.ppn, f.shape, f.result_id, f.valid, f.reason, f.job, f.params, f.hints, f.env
FROM sweep_runs sr CROSS JOIN result_facts f
WHERE f.sweep_id = sr.sweep_id AND f.run = sr.run
  AND f.result_id = (SELECT max(n.id) FROM results n
                     WHERE n.point_id = f.point_id AND n.run_no = sr.run);

-- The settings that define each chosen result, one row each: what `check` compares with its
-- reference's (a changed definition is its own verdict) and `run` and `status` watch between
-- the runs of a sweep. They are the parameters the worker echoed (its defaults, its job's
-- command line, PBENCH_* values from the environment), but those that only say where or until
-- when it ran (output, dir, deadline, time_left, deadline_margin), the seed comm draws at start,
-- and bcast's hop_delay_us: a synthetic delay per hop that stands for a slower network, a
-- property of the system measured (a changed one regresses or improves the figures, as a slower
-- network would). value: canonical JSON text; source: default, command_line or environment.
CREATE VIEW result_settings AS
SELECT rr.sweep_id, rr.sweep, rr.run, rr.latest, rr.point_id, rr.result_id, rr.worker, rr.env,
       j.key AS name,
       CASE WHEN j.type = 'object' THEN json_quote(json_extract(j.value, '$.value'))
            ELSE json_quote(j.value) END AS value,
       CASE WHEN j.type = 'object' THEN json_extract(j.value, '$.source') END AS source
FROM run_results rr CROSS JOIN results d CROSS JOIN json_each(d.head, '$.parameters') j
WHERE d.id = rr.result_id
  AND j.key NOT IN ('output', 'dir', 'deadline', 'time_left', 'deadline_margin', 'seed',
                    'hop_delay_us');

-- Every metric of every chosen result, long and typed: unit and direction from the catalogue
-- (a metric stored before the catalogue existed and not in it keeps its unit, with no
-- direction), the partition from the metric's label where it has one (io), else its point's.
CREATE VIEW metric_values AS
SELECT rr.sweep_id, rr.sweep, rr.run, rr.latest, rr.worker, m.name AS metric, m.value AS value,
       coalesce(c.unit, m.unit) AS unit, c.better AS better,
       coalesce(json_extract(m.labels, '$.partition'), rr.partition) AS partition,
       rr.nodes, rr.ppn, rr.shape, m.labels AS labels, m.samples AS samples, rr.valid, rr.reason,
       rr.point, rr.job, rr.params, rr.hints, rr.point_id, rr.result_id, m.id AS metric_id, rr.env
FROM run_results rr CROSS JOIN metrics m
  LEFT JOIN metric_catalogue c ON c.worker = rr.worker AND c.name = m.name
WHERE m.result_id = rr.result_id;

-- The values that compete for a headline figure, each with its group (one per figure; per
-- partition shape for per_shape figures) and the keys the rule orders them by (headline_ranks).
-- A result stored before pbench-io followed rev 2.1 competes with its b_eff_io_rev2 (its
-- b_eff_io is the paper's).
CREATE VIEW headline_candidates AS
SELECT rr.sweep_id, rr.sweep, rr.run, rr.latest, c.figure, c.figure_order,
       CASE c.headline_rule WHEN 'legacy' THEN 'maximum' ELSE c.headline_rule END AS rule,
       rr.worker, m.name AS metric, m.value AS value, c.unit AS unit, c.better AS better,
       coalesce(json_extract(m.labels, '$.partition'), rr.partition) AS partition,
       rr.nodes, rr.ppn, rr.shape, rr.point_id, rr.point, rr.result_id, rr.valid,
       m.labels AS labels, m.id AS metric_id, rr.env AS env,
       CASE c.headline_rule WHEN 'per_shape' THEN rr.partition END AS group_partition,
       CASE c.headline_rule WHEN 'per_shape' THEN coalesce(rr.nodes, 0) END AS group_nodes,
       CASE c.headline_rule WHEN 'per_shape' THEN coalesce(rr.ppn, 0) END AS group_ppn,
       CASE rr.worker WHEN 'bcast' THEN json_extract(m.labels, '$.size') END AS rank_size,
       -rr.valid AS rank_valid,
       CASE c.better WHEN 'higher' THEN -m.value ELSE m.value END AS rank_value
FROM run_results rr CROSS JOIN metric_catalogue c CROSS JOIN metrics m
WHERE c.worker = rr.worker AND c.headline_rule IN ('maximum', 'per_shape', 'legacy')
  AND m.name = c.name AND m.result_id = rr.result_id AND m.value IS NOT NULL
  AND (c.name <> 'b_eff_io' OR NOT EXISTS (SELECT 1 FROM metrics l
         WHERE l.name = 'b_eff_io_rev2' AND l.result_id = rr.result_id))
  AND (rr.worker <> 'bcast' OR json_type(m.labels, '$.size') IN ('integer', 'real'));

-- THE HEADLINE RULE, written here and nowhere else: each candidate's rank in its group (one
-- per environment of the sweep, and per partition shape for per_shape figures), 1 for the
-- winner. The order: the smallest message size first (bcast: the OL at the smallest size
-- measured), then a valid result before a not valid one however much better its value, then
-- the best value by the catalogue's direction, then the tie rule: the smaller partition, the
-- earlier point, the smaller labels (T, queue depth, size) in their canonical JSON text. The
-- order within a group is total, so the best of any part of a group (io_system's T and hint
-- set, query system's --where) is its candidate of the smallest rank.
CREATE VIEW headline_ranks AS
SELECT hc.sweep_id, hc.run, hc.figure, hc.figure_order, hc.group_partition, hc.group_nodes,
       hc.group_ppn, hc.metric_id, hc.result_id, hc.point_id, hc.worker, hc.sweep, hc.latest,
       hc.partition, hc.nodes, hc.ppn, hc.labels, hc.env,
       row_number() OVER (PARTITION BY hc.sweep_id, hc.run, hc.env, hc.figure,
                                       hc.group_partition, hc.group_nodes, hc.group_ppn
                          ORDER BY hc.rank_size, hc.rank_valid, hc.rank_value, hc.partition,
                                   hc.point_id, hc.labels) AS rank
FROM headline_candidates hc;

-- The groups of each run's headline, each in one environment of the sweep (env; NULL for a
-- sweep without --envs): each maximum figure of a worker the sweep has points of in that
-- environment, each partition shape with a per_shape candidate, and each per_shape figure of a
-- worker the sweep has points of in that environment but no candidate of (group_partition
-- NULL). group_order is the figure order of the group's figure.
CREATE VIEW headline_groups AS
SELECT sr.sweep_id, sr.sweep, sr.run, sr.latest, c.figure, c.figure_order AS group_order,
       c.worker, we.env, NULL AS group_partition, NULL AS group_nodes, NULL AS group_ppn
FROM sweep_runs sr CROSS JOIN metric_catalogue c
  CROSS JOIN (SELECT DISTINCT e.sweep_id, e.worker, e.env FROM point_envs e) we
WHERE c.headline_rule = 'maximum' AND we.sweep_id = sr.sweep_id AND we.worker = c.worker
UNION ALL
SELECT DISTINCT hc.sweep_id, hc.sweep, hc.run, hc.latest, hc.figure, hc.figure_order,
       hc.worker, hc.env, hc.group_partition, hc.group_nodes, hc.group_ppn
FROM metric_catalogue c CROSS JOIN headline_candidates hc
WHERE c.headline_rule = 'per_shape' AND hc.worker = c.worker AND hc.figure = c.figure
UNION ALL
SELECT sr.sweep_id, sr.sweep, sr.run, sr.latest, c.figure, c.figure_order, c.worker, we.env, NULL,
       NULL, NULL
FROM sweep_runs sr CROSS JOIN metric_catalogue c
  CROSS JOIN (SELECT DISTINCT e.sweep_id, e.worker, e.env FROM point_envs e) we
WHERE c.headline_rule = 'per_shape' AND we.sweep_id = sr.sweep_id AND we.worker = c.worker
  AND NOT EXISTS (SELECT 1 FROM headline_candidates hc WHERE hc.sweep_id = sr.sweep_id
                    AND hc.run = sr.run AND hc.figure = c.figure AND hc.env IS we.env);

-- The winner of each group that has candidates: the metric_id of its candidate of rank 1.
CREATE VIEW headline_winners AS
SELECT r.sweep_id, r.sweep, r.run, r.latest, r.figure, r.figure_order AS group_order, r.worker,
       r.env, r.group_partition, r.group_nodes, r.group_ppn, r.metric_id AS winner
FROM headline_ranks r
WHERE r.rank = 1;

-- The rows a headline candidate gives the table when it wins (winner: its metric_id): its own
-- figure, and its companions read from the same result (logp's g: G and the bandwidth at the
-- largest size at the same queue depth; logp's EEL: o_s, o_r and L). at: where it was won (T
-- and hint set; the queue depth, the 8-byte ping-pong or the overlap test at q = 1; the
-- message size and broadcast implementation).
CREATE VIEW headline_rows AS
SELECT m.id AS winner, c.figure AS figure,
       CASE WHEN c.figure = mc.figure THEN m.value
            ELSE (SELECT v.value FROM metrics v
                  WHERE v.result_id = m.result_id AND v.name = c.name AND v.value IS NOT NULL
                    AND (c.label_keys NOT LIKE '%queue_depth%'
                         OR json_extract(v.labels, '$.queue_depth')
                              IS json_extract(m.labels, '$.queue_depth'))
                  ORDER BY v.id LIMIT 1) END AS value,
       c.unit AS unit,
       coalesce(json_extract(m.labels, '$.partition'), f.partition) AS partition,
       CASE f.worker
         WHEN 'io' THEN
           'T=' || coalesce((SELECT printf('%.6g', t.value) || ' s' FROM metrics t
                             WHERE t.result_id = m.result_id AND t.name = 'schedule_time'
                               AND t.value IS NOT NULL
                               AND json_extract(t.labels, '$.partition')
                                     IS json_extract(m.labels, '$.partition')
                             ORDER BY t.id LIMIT 1), '?') ||
           ', hints=' || f.hints
         WHEN 'logp' THEN
           CASE c.name
             WHEN 'eel_min' THEN '8 B ping-pong'
             WHEN 'o_s' THEN 'overlap test, q=1'
             WHEN 'o_r' THEN 'overlap test, q=1'
             WHEN 'latency_l' THEN 'EEL - o_s - o_r'
             ELSE coalesce('q=' || json_extract(m.labels, '$.queue_depth'), '') END
         WHEN 'bcast' THEN
           'size=' || json_extract(m.labels, '$.size') || ' B, impl=' ||
           coalesce((SELECT coalesce(json_extract(d.head, '$.parameters.impl.value'),
                                     json_extract(d.head, '$.parameters.impl'))
                     FROM results d WHERE d.id = m.result_id), '?')
         ELSE '' END AS at,
       f.point AS point, f.job AS job, CASE f.valid WHEN 0 THEN 'no' ELSE 'yes' END AS valid,
       f.reason AS reason, f.nodes AS nodes, f.ppn AS ppn, c.better AS better, f.shape AS shape,
       c.figure = mc.figure AS won, c.figure_order AS row_order, f.env AS env
FROM metrics m CROSS JOIN result_facts f CROSS JOIN metric_catalogue mc
  CROSS JOIN metric_catalogue c
WHERE f.result_id = m.result_id AND mc.worker = f.worker AND mc.name = m.name
  AND mc.figure IS NOT NULL AND c.worker = f.worker AND c.headline_rule <> 'legacy'
  AND (c.figure = mc.figure OR (c.headline_rule = 'companion' AND c.companion_of = m.name));

-- The headline figures of every sweep and run, as `pbench query system` prints them (its
-- --run N is `run = N`, its default `latest`): each group's winner with its rows, and a figure
-- without any result as a row without a value ("no result"); one of each per environment (env)
-- of a sweep made with --envs. query system's order: ORDER BY sweep_id, run, group_order, env,
-- group_partition, group_nodes, group_ppn, row_order.
CREATE VIEW headlines AS
SELECT w.sweep_id, w.sweep, w.run, w.latest, w.env, r.figure, r.value, r.unit, r.partition, r.at,
       r.point, r.job, r.valid, r.reason, r.nodes, r.ppn, r.better, r.shape, r.won,
       w.group_order, w.group_partition, w.group_nodes, w.group_ppn, r.row_order
FROM headline_winners w CROSS JOIN headline_rows r
WHERE r.winner = w.winner
UNION ALL
SELECT g.sweep_id, g.sweep, g.run, g.latest, g.env, g.figure, NULL, c.unit, NULL, 'no result', NULL,
       NULL, NULL, NULL, NULL, NULL, c.better, NULL, 1, g.group_order, g.group_partition,
       g.group_nodes, g.group_ppn, g.group_order
FROM headline_groups g CROSS JOIN metric_catalogue c
WHERE c.worker = g.worker AND c.figure = g.figure AND c.headline_rule <> 'legacy'
  AND NOT EXISTS (SELECT 1 FROM headline_candidates hc
                  WHERE hc.sweep_id = g.sweep_id AND hc.run = g.run AND hc.figure = g.figure
                    AND hc.env IS g.env AND hc.group_partition IS g.group_partition
                    AND hc.group_nodes IS g.group_nodes AND hc.group_ppn IS g.group_ppn);

-- Each worker's table as `pbench query WORKER --format csv` prints it (base units; `--run N` is
-- `run = N`, the default `latest`), one row per chosen result and its own key, with the
-- columns of that table; the order of the table is given with each view.

-- logp: a row per queue depth of each chosen result (the depths with a figure), the run-wide
-- figures (EEL, its median over runs, o_s, o_r, L) beside each. ORDER BY sweep, partition, nodes,
-- ppn, point_id, queue_depth.
CREATE VIEW logp_table AS
SELECT d.sweep_id, d.sweep, d.run, d.latest, d.point_id, d.point, d.result_id, d.env,
       d.partition, d.nodes, d.ppn, d.queue_depth,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'eel_min'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1) AS eel,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'eel_median'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1) AS eel_median,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'o_s'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1) AS o_s,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'o_r'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1) AS o_r,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'g'
          AND json_extract(v.labels, '$.queue_depth') = d.queue_depth AND v.value IS NOT NULL
          ORDER BY v.id DESC LIMIT 1) AS g,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'big_g'
          AND json_extract(v.labels, '$.queue_depth') = d.queue_depth AND v.value IS NOT NULL
          ORDER BY v.id DESC LIMIT 1) AS big_g,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'bandwidth'
          AND json_extract(v.labels, '$.queue_depth') = d.queue_depth AND v.value IS NOT NULL
          ORDER BY v.id DESC LIMIT 1) AS bandwidth,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'latency_l'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1) AS latency_l,
       (SELECT v.value FROM metrics v
        WHERE v.result_id = d.result_id AND v.name = 'large_message_threshold'
          AND json_extract(v.labels, '$.queue_depth') = d.queue_depth AND v.value IS NOT NULL
          ORDER BY v.id DESC LIMIT 1) AS large_message_threshold,
       CASE d.valid WHEN 0 THEN 'no' ELSE 'yes' END AS valid, d.reason
FROM (SELECT DISTINCT rr.sweep_id, rr.sweep, rr.run, rr.latest, rr.point_id, rr.point,
             rr.result_id, rr.env, rr.partition, rr.nodes, rr.ppn, rr.valid, rr.reason,
             json_extract(m.labels, '$.queue_depth') AS queue_depth
      FROM run_results rr CROSS JOIN metrics m
      WHERE rr.worker = 'logp' AND m.result_id = rr.result_id
        AND m.name IN ('g', 'big_g', 'bandwidth', 'large_message_threshold')
        AND m.value IS NOT NULL AND json_type(m.labels, '$.queue_depth') = 'integer') d;

-- bcast: a row per message size of each chosen result, with the broadcast implementation, the
-- synthetic hop delay and the root order it ran with. ORDER BY sweep_id, partition, point_id,
-- size.
CREATE VIEW bcast_table AS
SELECT d.sweep_id, d.sweep, d.run, d.latest, d.point_id, d.point, d.result_id, d.env,
       d.partition, d.nodes, d.ppn,
       (SELECT CASE json_type(x.head, '$.parameters.impl.value')
                 WHEN 'text' THEN json_extract(x.head, '$.parameters.impl.value')
                 ELSE '?' END FROM results x WHERE x.id = d.result_id) AS impl,
       (SELECT CASE WHEN json_type(x.head, '$.parameters.hop_delay_us.value')
                           IN ('integer', 'real')
                    THEN json_extract(x.head, '$.parameters.hop_delay_us.value') * 1e-6
                    ELSE 0.0 END FROM results x WHERE x.id = d.result_id) AS hop_delay,
       d.size,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'ol'
          AND json_extract(v.labels, '$.size') = d.size AND v.value IS NOT NULL
          ORDER BY v.id DESC LIMIT 1) AS ol,
       (SELECT CAST(v.value AS INTEGER) FROM metrics v
        WHERE v.result_id = d.result_id AND v.name = 'ol_task'
          AND json_extract(v.labels, '$.size') = d.size AND v.value IS NOT NULL
          ORDER BY v.id DESC LIMIT 1) AS ol_task,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'send_latency'
          AND json_extract(v.labels, '$.size') = d.size AND v.value IS NOT NULL
          ORDER BY v.id DESC LIMIT 1) AS send_latency,
       (SELECT v.value FROM metrics v
        WHERE v.result_id = d.result_id AND v.name = 'rounds_latency'
          AND json_extract(v.labels, '$.size') = d.size AND v.value IS NOT NULL
          ORDER BY v.id DESC LIMIT 1) AS rounds_latency,
       (SELECT CASE json_type(x.head, '$.parameters.root_order.value')
                 WHEN 'text' THEN json_extract(x.head, '$.parameters.root_order.value')
                 ELSE '?' END FROM results x WHERE x.id = d.result_id) AS root_order,
       (SELECT v.value FROM metrics v
        WHERE v.result_id = d.result_id AND v.name = 'barrier_latency'
          AND json_extract(v.labels, '$.size') = d.size AND v.value IS NOT NULL
          ORDER BY v.id DESC LIMIT 1) AS barrier_latency,
       (SELECT v.value FROM metrics v WHERE v.result_id = d.result_id AND v.name = 'ack_latency'
          AND json_extract(v.labels, '$.size') = d.size AND v.value IS NOT NULL
          ORDER BY v.id DESC LIMIT 1) AS ack_latency,
       CASE d.valid WHEN 0 THEN 'no' ELSE 'yes' END AS valid, d.reason
FROM (SELECT DISTINCT rr.sweep_id, rr.sweep, rr.run, rr.latest, rr.point_id, rr.point,
             rr.result_id, rr.env, rr.partition, rr.nodes, rr.ppn, rr.valid, rr.reason,
             json_extract(m.labels, '$.size') AS size
      FROM run_results rr CROSS JOIN metrics m
      WHERE rr.worker = 'bcast' AND m.result_id = rr.result_id AND m.value IS NOT NULL
        AND json_type(m.labels, '$.size') = 'integer') d;

-- comm: the paper's Table 1, a row per chosen result.
CREATE VIEW comm_rows AS
SELECT rr.sweep_id, rr.sweep, rr.run, rr.latest, rr.point_id, rr.point, rr.result_id, rr.job,
       rr.env, rr.shape, rr.partition, rr.nodes, rr.ppn,
       (SELECT v.value FROM metrics v WHERE v.result_id = rr.result_id AND v.name = 'b_eff'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1) AS b_eff,
       (SELECT v.value FROM metrics v
        WHERE v.result_id = rr.result_id AND v.name = 'b_eff_per_process'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1)
         AS b_eff_per_process,
       (SELECT v.value FROM metrics v WHERE v.result_id = rr.result_id AND v.name = 'l_max'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1) AS l_max,
       (SELECT v.value FROM metrics v
        WHERE v.result_id = rr.result_id AND v.name = 'pingpong_bandwidth'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1)
         AS pingpong_bandwidth,
       (SELECT v.value FROM metrics v WHERE v.result_id = rr.result_id AND v.name = 'b_eff_at_lmax'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1) AS b_eff_at_lmax,
       (SELECT v.value FROM metrics v
        WHERE v.result_id = rr.result_id AND v.name = 'b_eff_per_process_at_lmax'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1)
         AS b_eff_per_process_at_lmax,
       (SELECT v.value FROM metrics v
        WHERE v.result_id = rr.result_id AND v.name = 'ring_per_process_at_lmax'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1)
         AS ring_per_process_at_lmax,
       (SELECT v.value FROM metrics v
        WHERE v.result_id = rr.result_id AND v.name = 'latency_rings_random'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1)
         AS latency_rings_random,
       (SELECT v.value FROM metrics v WHERE v.result_id = rr.result_id AND v.name = 'latency_rings'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1) AS latency_rings,
       (SELECT v.value FROM metrics v
        WHERE v.result_id = rr.result_id AND v.name = 'latency_pingpong'
          AND v.labels = '{}' AND v.value IS NOT NULL ORDER BY v.id DESC LIMIT 1)
         AS latency_pingpong,
       CASE rr.valid WHEN 0 THEN 'no' ELSE 'yes' END AS valid, rr.reason
FROM run_results rr
WHERE rr.worker = 'comm';

-- comm's table: its rows (row 'partition'), then per sweep and run a row 'max', the result that
-- wins the headline b_eff (valid first, then the largest; one per environment). ORDER BY sweep_id, run, row_order,
-- partition, point_id.
CREATE VIEW comm_table AS
SELECT 'partition' AS "row", 0 AS row_order, c.* FROM comm_rows c
UNION ALL
SELECT 'max', 1, c.*
FROM headline_winners w CROSS JOIN comm_rows c
WHERE w.figure = 'b_eff' AND c.sweep_id = w.sweep_id AND c.run = w.run
  AND c.result_id = (SELECT m.result_id FROM metrics m WHERE m.id = w.winner);

-- io: b_eff_io's table, a row per partition of each chosen result (an io result measures every
-- partition up to its own), with its T and hint set; a result stored before pbench-io followed
-- rev 2.1 shows its b_eff_io_rev2 as b_eff_io and its b_eff_io as the paper's. ORDER BY
-- sweep_id, point partition, point_id, partition (the view's point_partition).
CREATE VIEW io_table AS
SELECT d.sweep_id, d.sweep, d.run, d.latest, d.point_id, d.point, d.result_id, d.env,
       d.point_partition, d.partition, d.nodes, d.ppn, d.schedule_time, d.hints, d.write,
       d.rewrite, d.read, coalesce(d.rev2, d.b_eff_io) AS b_eff_io,
       CASE WHEN d.rev2 IS NULL THEN d.paper ELSE coalesce(d.b_eff_io, d.paper) END
         AS b_eff_io_paper,
       d.elapsed, d.valid, d.reason, d.rev2 IS NOT NULL AS legacy
FROM (
  SELECT k.*,
    (SELECT v.value FROM metrics v WHERE v.result_id = k.result_id AND v.name = 'schedule_time'
       AND json_extract(v.labels, '$.partition') = k.partition AND v.value IS NOT NULL
       ORDER BY v.id DESC LIMIT 1) AS schedule_time,
    (SELECT v.value FROM metrics v WHERE v.result_id = k.result_id AND v.name = 'access_bandwidth'
       AND json_extract(v.labels, '$.partition') = k.partition
       AND json_extract(v.labels, '$.access') = 'write' AND v.value IS NOT NULL
       ORDER BY v.id DESC LIMIT 1) AS write,
    (SELECT v.value FROM metrics v WHERE v.result_id = k.result_id AND v.name = 'access_bandwidth'
       AND json_extract(v.labels, '$.partition') = k.partition
       AND json_extract(v.labels, '$.access') = 'rewrite' AND v.value IS NOT NULL
       ORDER BY v.id DESC LIMIT 1) AS rewrite,
    (SELECT v.value FROM metrics v WHERE v.result_id = k.result_id AND v.name = 'access_bandwidth'
       AND json_extract(v.labels, '$.partition') = k.partition
       AND json_extract(v.labels, '$.access') = 'read' AND v.value IS NOT NULL
       ORDER BY v.id DESC LIMIT 1) AS read,
    (SELECT v.value FROM metrics v WHERE v.result_id = k.result_id AND v.name = 'b_eff_io'
       AND json_extract(v.labels, '$.partition') = k.partition AND v.value IS NOT NULL
       ORDER BY v.id DESC LIMIT 1) AS b_eff_io,
    (SELECT v.value FROM metrics v WHERE v.result_id = k.result_id AND v.name = 'b_eff_io_rev2'
       AND json_extract(v.labels, '$.partition') = k.partition AND v.value IS NOT NULL
       ORDER BY v.id DESC LIMIT 1) AS rev2,
    (SELECT v.value FROM metrics v WHERE v.result_id = k.result_id AND v.name = 'b_eff_io_paper'
       AND json_extract(v.labels, '$.partition') = k.partition AND v.value IS NOT NULL
       ORDER BY v.id DESC LIMIT 1) AS paper,
    (SELECT v.value FROM metrics v WHERE v.result_id = k.result_id AND v.name = 'elapsed'
       AND json_extract(v.labels, '$.partition') = k.partition AND v.value IS NOT NULL
       ORDER BY v.id DESC LIMIT 1) AS elapsed
  FROM (SELECT DISTINCT rr.sweep_id, rr.sweep, rr.run, rr.latest, rr.point_id, rr.point,
               rr.result_id, rr.env, rr.partition AS point_partition, rr.nodes, rr.ppn, rr.hints,
               CASE rr.valid WHEN 0 THEN 'no' ELSE 'yes' END AS valid, rr.reason,
               json_extract(m.labels, '$.partition') AS partition
        FROM run_results rr CROSS JOIN metrics m
        WHERE rr.worker = 'io' AND m.result_id = rr.result_id AND m.value IS NOT NULL
          AND m.name IN ('access_bandwidth', 'b_eff_io', 'b_eff_io_paper', 'b_eff_io_rev2',
                         'schedule_time', 'elapsed')
          AND json_type(m.labels, '$.partition') = 'integer'
          AND (m.name <> 'access_bandwidth' OR json_type(m.labels, '$.access') = 'text')) k
) d;

-- io: the system b_eff_io of each sweep and run per environment, T and hint set: winner is the metric_id of
-- the b_eff_io of the smallest rank (headline_ranks) among those of that T (the result's
-- schedule_time of that partition) and hint set. (One window over the candidates, no GROUP BY
-- and no subquery between: SQLite then takes a filter on sweep_id and run into the window's
-- partitions and computes one run, not a sweep's whole history.)
CREATE VIEW io_system AS
SELECT w.sweep_id, w.sweep, w.run, w.latest, w.env, w.schedule_time, w.hints, w.winner, w.rank
FROM (SELECT r.sweep_id, r.sweep, r.run, r.latest, r.env, t.value AS schedule_time, f.hints,
             r.metric_id AS winner, r.rank,
             row_number() OVER (PARTITION BY r.sweep_id, r.run, r.env, t.value, f.hints
                                ORDER BY r.rank) AS place
      FROM headline_ranks r CROSS JOIN metrics m CROSS JOIN result_facts f
        LEFT JOIN metrics t ON t.name = 'schedule_time' AND t.result_id = m.result_id
                           AND t.value IS NOT NULL
                           AND json_extract(t.labels, '$.partition')
                                 IS json_extract(m.labels, '$.partition')
      WHERE r.figure = 'b_eff_io' AND m.id = r.metric_id AND f.result_id = r.result_id) w
WHERE w.place = 1;

-- The headlines pbench has answered, kept so that a run's headline is computed once, when its
-- results are collected, not at every query: headline_answers holds exactly the rows of the
-- view headlines for each (sweep_id, run) that headline_answered names (without latest, which
-- is sweep_runs'). pbench fills them after collecting and after opening a store for writing
-- (Store::answer_headlines); the triggers below take a run's mark away whenever anything its
-- headline reads changes (a result of the run stored, changed or removed, a point of the sweep,
-- a job id, the catalogue), and the queries read the view itself for a run without a mark. The
-- metrics of a result are written with it, in its transaction, never alone. Made again (empty)
-- with the views: a new version of the views answers every run again.
DROP TRIGGER IF EXISTS headline_stale_on_result_insert;
DROP TRIGGER IF EXISTS headline_stale_on_result_delete;
DROP TRIGGER IF EXISTS headline_stale_on_result_update;
DROP TRIGGER IF EXISTS headline_stale_on_point_insert;
DROP TRIGGER IF EXISTS headline_stale_on_point_delete;
DROP TRIGGER IF EXISTS headline_stale_on_point_update;
DROP TRIGGER IF EXISTS headline_stale_on_job;
DROP TRIGGER IF EXISTS headline_stale_on_run_delete;
DROP TRIGGER IF EXISTS headline_stale_on_catalogue_insert;
DROP TRIGGER IF EXISTS headline_stale_on_catalogue_delete;
DROP TRIGGER IF EXISTS headline_stale_on_catalogue_update;
DROP TABLE IF EXISTS headline_answers;
DROP TABLE IF EXISTS headline_answered;
CREATE TABLE headline_answered (
  sweep_id    INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
  run         INTEGER NOT NULL,
  answered_at TEXT NOT NULL,
  PRIMARY KEY (sweep_id, run)
) WITHOUT ROWID;
CREATE TABLE headline_answers (
  sweep_id        INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
  run             INTEGER NOT NULL,
  env             TEXT,
  figure          TEXT NOT NULL,
  value           REAL,
  unit            TEXT,
  partition       INTEGER,
  at              TEXT,
  point           TEXT,
  job             TEXT,
  valid           TEXT,
  reason          TEXT,
  nodes           INTEGER,
  ppn             INTEGER,
  better          TEXT,
  shape           TEXT,
  won             INTEGER,
  group_order     INTEGER,
  group_partition INTEGER,
  group_nodes     INTEGER,
  group_ppn       INTEGER,
  row_order       INTEGER
);
CREATE INDEX headline_answers_by_run ON headline_answers (sweep_id, run);

CREATE TRIGGER headline_stale_on_result_insert AFTER INSERT ON results BEGIN
  DELETE FROM headline_answered
  WHERE run = NEW.run_no AND sweep_id = (SELECT p.sweep_id FROM points p WHERE p.id = NEW.point_id);
END;
CREATE TRIGGER headline_stale_on_result_delete AFTER DELETE ON results BEGIN
  DELETE FROM headline_answered
  WHERE run = OLD.run_no AND sweep_id = (SELECT p.sweep_id FROM points p WHERE p.id = OLD.point_id);
END;
CREATE TRIGGER headline_stale_on_result_update
AFTER UPDATE OF point_id, attempt_id, valid, run_no, nodes, procs_per_node, placement,
  ingest_reason, head, packed
ON results BEGIN
  DELETE FROM headline_answered
  WHERE (run = OLD.run_no
         AND sweep_id = (SELECT p.sweep_id FROM points p WHERE p.id = OLD.point_id))
     OR (run = NEW.run_no
         AND sweep_id = (SELECT p.sweep_id FROM points p WHERE p.id = NEW.point_id));
END;
CREATE TRIGGER headline_stale_on_point_insert AFTER INSERT ON points BEGIN
  DELETE FROM headline_answered WHERE sweep_id = NEW.sweep_id;
END;
CREATE TRIGGER headline_stale_on_point_delete AFTER DELETE ON points BEGIN
  DELETE FROM headline_answered WHERE sweep_id = OLD.sweep_id;
END;
CREATE TRIGGER headline_stale_on_point_update
AFTER UPDATE OF sweep_id, point_key, worker, partition, params_json, nodes, procs_per_node
ON points BEGIN
  DELETE FROM headline_answered WHERE sweep_id IN (OLD.sweep_id, NEW.sweep_id);
END;
CREATE TRIGGER headline_stale_on_job AFTER UPDATE OF job_id ON attempts
WHEN OLD.job_id IS NOT NEW.job_id BEGIN
  DELETE FROM headline_answered
  WHERE sweep_id = (SELECT p.sweep_id FROM points p WHERE p.id = NEW.point_id);
END;
CREATE TRIGGER headline_stale_on_run_delete AFTER DELETE ON runs BEGIN
  DELETE FROM headline_answered WHERE sweep_id = OLD.sweep_id AND run = OLD.run_no;
END;
CREATE TRIGGER headline_stale_on_catalogue_insert AFTER INSERT ON metric_catalogue BEGIN
  DELETE FROM headline_answered;
END;
CREATE TRIGGER headline_stale_on_catalogue_delete AFTER DELETE ON metric_catalogue BEGIN
  DELETE FROM headline_answered;
END;
CREATE TRIGGER headline_stale_on_catalogue_update AFTER UPDATE ON metric_catalogue BEGIN
  DELETE FROM headline_answered;
END;
