// Migration 3's PL/pgSQL functions: group commit of one organization's reserves and settlements.
// PostgreSQL holds a row lock until the commit is fsynced, so one statement per reserve and per settle
// queued every search of one organization behind the others' fsyncs (~500/s, issue 33). These take
// the calls that piled up on one instance for one organization while its previous statement ran, and
// apply them in one transaction: one row lock, one fsync, for all of them (group-commit.ts).
// books_many carries both kinds in one statement (settlements first: they free credits), so reserves and
// settlements of the organization do not queue on its row behind each other's fsyncs either.
// Each item keeps the meaning of the one-call functions, as if they ran one after another in array
// order: reserve_many = reserve, settle_many = settle_traced without an idempotency key (keyed
// settlements lock a claim row, and stay one call each, so the lock order below has no cycle).
// Lock order as in migration 1: reservation rows, then the organization row (settle_many); reserve_many
// locks the organization row first, like reserve, and only inserts reservation rows after it.

export function batchFunctions(s: string): string {
  return `
    -- Holds p_amounts[i] under p_ids[i] for p_owner, in order, each while balance minus pending holds
    -- covers it. o_states[i]: 'ok', 'insufficient_credits' (o_available[i]: what was free then),
    -- 'unknown_organization', or 'duplicate' (the id is already used: nothing held for it; the one-call
    -- reserve raises there). Refusals for want of credits first release the organization's holds whose
    -- owner is dead, then the refused items are tried once more, as reserve does.
    CREATE FUNCTION ${s}.reserve_many(p_ids text[], p_org text, p_amounts bigint[], p_owner uuid, p_at bigint,
      OUT o_states text[], OUT o_available bigint[]) LANGUAGE plpgsql AS $$
    DECLARE
      v_n integer := coalesce(array_length(p_ids, 1), 0);
      v_free bigint;
      v_try integer[];
      v_held integer[];
      v_added bigint;
      v_short boolean;
      v_dup boolean;
      v_i integer;
    BEGIN
      o_states := array_fill('insufficient_credits'::text, ARRAY[v_n]);
      o_available := array_fill(0::bigint, ARRAY[v_n]);
      PERFORM 1 FROM ${s}.organizations WHERE id = p_org FOR UPDATE;
      IF NOT FOUND THEN
        o_states := array_fill('unknown_organization'::text, ARRAY[v_n]);
        RETURN;
      END IF;
      FOR v_attempt IN 1 .. 2 LOOP
        SELECT balance - reserved INTO v_free FROM ${s}.organizations WHERE id = p_org;
        -- Which of the items still refused fit, in order (an item too big does not stop smaller ones after it).
        v_try := '{}';
        v_short := false;
        FOR i IN 1 .. v_n LOOP
          CONTINUE WHEN o_states[i] <> 'insufficient_credits';
          IF p_amounts[i] <= v_free THEN
            v_try := v_try || i;
            v_free := v_free - p_amounts[i];
          ELSE
            v_short := true;
            o_available[i] := greatest(0, v_free);
          END IF;
        END LOOP;
        -- One insert for all of them; an id already used inserts nothing and holds nothing.
        -- (An id twice in the batch: its first item only, the other is a duplicate.)
        WITH src AS (
          SELECT DISTINCT ON (u.id) u.id, u.amount, u.n::integer AS n
          FROM unnest(p_ids, p_amounts) WITH ORDINALITY AS u(id, amount, n) WHERE u.n::integer = ANY (v_try) ORDER BY u.id, u.n),
        held AS (
          INSERT INTO ${s}.reservations (id, organization, amount, owner, created_at)
            SELECT src.id, p_org, src.amount, p_owner, p_at FROM src ON CONFLICT (id) DO NOTHING RETURNING id)
        SELECT coalesce(array_agg(src.n), '{}'), coalesce(sum(src.amount), 0) INTO v_held, v_added FROM held JOIN src USING (id);
        v_dup := false;
        FOREACH v_i IN ARRAY v_try LOOP
          IF v_i = ANY (v_held) THEN
            o_states[v_i] := 'ok';
          ELSE
            o_states[v_i] := 'duplicate';
            v_dup := true;
          END IF;
        END LOOP;
        IF v_added > 0 THEN
          UPDATE ${s}.organizations SET reserved = reserved + v_added WHERE id = p_org;
        END IF;
        -- Refused ones are tried once more: after releasing the dead instances' holds, as reserve does, or
        -- when a duplicate id left credits counted above unheld.
        EXIT WHEN NOT v_short OR v_attempt = 2 OR (${s}.release_holds(p_org, NULL) = 0 AND NOT v_dup);
      END LOOP;
    END $$;

    -- Settles p_ids[i] (no idempotency key), in order, each as settle_traced would: charges
    -- min(p_charged[i], held), releases the rest, counts the request; an id with no pending hold is
    -- finished now and charged at most what no one else holds; an id already finished (before, or
    -- earlier in this batch) charges and counts nothing. One update of the organization row for all.
    -- Resolves what each item charged.
    CREATE FUNCTION ${s}.settle_many(p_ids text[], p_org text, p_search boolean[], p_charged bigint[], p_answered boolean[],
      p_at bigint) RETURNS bigint[] LANGUAGE plpgsql AS $$
    DECLARE
      v_n integer := coalesce(array_length(p_ids, 1), 0);
      v_held bigint[] := array_fill(NULL::bigint, ARRAY[v_n]); -- NULL: already finished, counts nothing
      v_out bigint[] := array_fill(0::bigint, ARRAY[v_n]);
      v_rows integer[];
      v_amounts bigint[];
      v_fresh integer[];
      v_fresh_charged boolean := false;
      v_free bigint;
      v_charge bigint;
      v_charged bigint := 0;
      v_released bigint := 0;
      v_searches bigint := 0;
      v_extracts bigint := 0;
      v_frees bigint := 0;
      v_i integer;
    BEGIN
      -- The pending holds, finished in one update (an id twice in the batch: its first item), with what
      -- each charges: min(charged, held) needs nothing else. Reservation rows are locked before the
      -- organization row, as settle does.
      WITH src AS (
        SELECT DISTINCT ON (u.id) u.id, u.charged, u.n::integer AS n
        FROM unnest(p_ids, p_charged) WITH ORDINALITY AS u(id, charged, n) ORDER BY u.id, u.n),
      held AS (
        UPDATE ${s}.reservations r SET finished = true, owner = NULL, charged = least(src.charged, r.amount)
          FROM src WHERE r.id = src.id AND NOT r.finished RETURNING src.n, r.amount)
      SELECT coalesce(array_agg(n), '{}'), coalesce(array_agg(amount), '{}') INTO v_rows, v_amounts FROM held;
      FOR j IN 1 .. coalesce(array_length(v_rows, 1), 0) LOOP
        v_held[v_rows[j]] := v_amounts[j];
      END LOOP;
      -- The others: an id never seen is finished now (held 0); one already finished counts nothing.
      IF coalesce(array_length(v_rows, 1), 0) < v_n THEN
        WITH src AS (
          SELECT DISTINCT ON (u.id) u.id, u.n::integer AS n
          FROM unnest(p_ids) WITH ORDINALITY AS u(id, n) WHERE NOT (u.n::integer = ANY (v_rows)) ORDER BY u.id, u.n),
        fresh AS (
          INSERT INTO ${s}.reservations (id, organization, amount, created_at, finished)
            SELECT src.id, p_org, 0, p_at, true FROM src ON CONFLICT (id) DO NOTHING RETURNING id)
        SELECT coalesce(array_agg(src.n), '{}') INTO v_fresh FROM fresh JOIN src USING (id);
        FOREACH v_i IN ARRAY v_fresh LOOP
          v_held[v_i] := 0;
        END LOOP;
      END IF;
      SELECT balance - reserved INTO v_free FROM ${s}.organizations WHERE id = p_org FOR UPDATE;
      IF NOT FOUND THEN
        RETURN v_out;
      END IF;
      FOR i IN 1 .. v_n LOOP
        CONTINUE WHEN v_held[i] IS NULL;
        IF v_held[i] > 0 THEN
          v_charge := least(p_charged[i], v_held[i]);
          v_free := v_free + v_held[i] - v_charge;
        ELSE
          v_charge := least(p_charged[i], greatest(0, v_free));
          v_free := v_free - v_charge;
          v_fresh_charged := v_fresh_charged OR v_charge > 0;
        END IF;
        v_out[i] := v_charge;
        v_charged := v_charged + v_charge;
        v_released := v_released + v_held[i];
        IF p_answered[i] THEN
          IF p_search[i] THEN v_searches := v_searches + 1; ELSE v_extracts := v_extracts + 1; END IF;
          IF v_charge = 0 THEN v_frees := v_frees + 1; END IF;
        END IF;
      END LOOP;
      UPDATE ${s}.organizations SET
        balance = balance - v_charged,
        used = used + v_charged,
        reserved = reserved - v_released,
        search_requests = search_requests + v_searches,
        extract_requests = extract_requests + v_extracts,
        free_requests = free_requests + v_frees
      WHERE id = p_org;
      -- What a fresh id charged, on its finished row (settle_traced's record, read back after a lost reply).
      IF v_fresh_charged THEN
        UPDATE ${s}.reservations r SET charged = u.charged
          FROM unnest(p_ids, v_out, v_held) WITH ORDINALITY AS u(id, charged, held, n)
          WHERE r.id = u.id AND u.held = 0 AND u.charged > 0;
      END IF;
      RETURN v_out;
    END $$;

    -- One organization's settlements, then its reserves, in one transaction (see above).
    CREATE FUNCTION ${s}.books_many(p_org text, p_owner uuid, p_at bigint,
      p_settle_ids text[], p_search boolean[], p_charged bigint[], p_answered boolean[],
      p_reserve_ids text[], p_amounts bigint[],
      OUT o_charged bigint[], OUT o_states text[], OUT o_available bigint[]) LANGUAGE plpgsql AS $$
    BEGIN
      o_charged := '{}';
      o_states := '{}';
      o_available := '{}';
      IF coalesce(array_length(p_settle_ids, 1), 0) > 0 THEN
        o_charged := ${s}.settle_many(p_settle_ids, p_org, p_search, p_charged, p_answered, p_at);
      END IF;
      IF coalesce(array_length(p_reserve_ids, 1), 0) > 0 THEN
        SELECT r.o_states, r.o_available INTO o_states, o_available FROM ${s}.reserve_many(p_reserve_ids, p_org, p_amounts, p_owner, p_at) r;
      END IF;
    END $$;`;
}
