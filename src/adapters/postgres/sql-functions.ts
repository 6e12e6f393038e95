// The ledger's operations as PL/pgSQL functions (created by schema.ts, migration 1). Each runs as the
// one statement of its call, so it is one round trip and one short transaction, and no lock is held
// while the network carries anything. No lost update: a hold is granted by an UPDATE whose condition
// PostgreSQL re-checks on the latest row version once the row lock is free, and every write of a
// settlement happens under the locks it takes in a fixed order: the reservation row, then the claim
// row, then the organization row. Releases that touch many organizations update them in id order.
// Variables are prefixed (p_ parameters, v_ locals, o_ outputs) so none shadows a column.

export function ledgerFunctions(s: string, name: string): string {
  // The sweeper's advisory lock: one per schema (a validated identifier, safe inside a literal).
  const sweepLock = `hashtext('websift.sweep'), hashtext('${name}')`;
  // A hold's owner is alive while its instance row exists with a lease in the future.
  const dead = (owner: string) => `NOT EXISTS (SELECT 1 FROM ${s}.instances i WHERE i.id = ${owner} AND i.lease_until > now())`;
  return `
    -- Releases pending holds and lowers each organization's reserved sum, in organization order.
    -- p_owner: that instance's holds (its clean close). Else the holds of dead or expired instances:
    -- of p_org only (the reserve path), or of every organization (the heartbeat's sweep). Rows another
    -- transaction has locked (a settlement in progress) are skipped, not waited for.
    CREATE FUNCTION ${s}.release_holds(p_org text, p_owner uuid) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      v_orgs text[];
      v_amounts bigint[];
      v_total bigint := 0;
    BEGIN
      IF p_owner IS NOT NULL THEN
        WITH gone AS (
          DELETE FROM ${s}.reservations WHERE id IN (
            SELECT id FROM ${s}.reservations WHERE owner = p_owner AND NOT finished FOR UPDATE)
          RETURNING organization, amount)
        SELECT array_agg(organization ORDER BY organization), array_agg(total ORDER BY organization) INTO v_orgs, v_amounts
        FROM (SELECT organization, sum(amount)::bigint AS total FROM gone GROUP BY organization) g;
      ELSIF p_org IS NOT NULL THEN
        WITH gone AS (
          DELETE FROM ${s}.reservations WHERE id IN (
            SELECT r.id FROM ${s}.reservations r
            WHERE r.organization = p_org AND NOT r.finished AND ${dead('r.owner')} FOR UPDATE SKIP LOCKED)
          RETURNING organization, amount)
        SELECT array_agg(organization ORDER BY organization), array_agg(total ORDER BY organization) INTO v_orgs, v_amounts
        FROM (SELECT organization, sum(amount)::bigint AS total FROM gone GROUP BY organization) g;
      ELSE
        WITH gone AS (
          DELETE FROM ${s}.reservations WHERE id IN (
            SELECT r.id FROM ${s}.reservations r
            WHERE NOT r.finished AND ${dead('r.owner')} FOR UPDATE SKIP LOCKED)
          RETURNING organization, amount)
        SELECT array_agg(organization ORDER BY organization), array_agg(total ORDER BY organization) INTO v_orgs, v_amounts
        FROM (SELECT organization, sum(amount)::bigint AS total FROM gone GROUP BY organization) g;
      END IF;
      FOR i IN 1 .. coalesce(array_length(v_orgs, 1), 0) LOOP
        UPDATE ${s}.organizations SET reserved = greatest(0, reserved - v_amounts[i]) WHERE id = v_orgs[i];
        v_total := v_total + v_amounts[i];
      END LOOP;
      RETURN v_total;
    END $$;

    -- Holds p_amount for p_owner when balance minus pending holds covers it. Refused for want of
    -- credits, it first releases the organization's holds whose owner is dead, then tries once more.
    CREATE FUNCTION ${s}.reserve(p_id text, p_org text, p_amount bigint, p_owner uuid, p_at bigint,
      OUT o_ok boolean, OUT o_reason text, OUT o_available bigint) LANGUAGE plpgsql AS $$
    DECLARE
      v_balance bigint;
      v_reserved bigint;
    BEGIN
      FOR v_attempt IN 1 .. 2 LOOP
        UPDATE ${s}.organizations SET reserved = reserved + p_amount WHERE id = p_org AND balance - reserved >= p_amount;
        IF FOUND THEN
          INSERT INTO ${s}.reservations (id, organization, amount, owner, created_at)
            VALUES (p_id, p_org, p_amount, p_owner, p_at) ON CONFLICT (id) DO NOTHING;
          IF NOT FOUND THEN
            -- Aborts the transaction: the hold above is undone with it.
            RAISE EXCEPTION 'websift: reservation id % is already used', p_id USING ERRCODE = 'unique_violation';
          END IF;
          o_ok := true;
          RETURN;
        END IF;
        SELECT balance, reserved INTO v_balance, v_reserved FROM ${s}.organizations WHERE id = p_org;
        IF NOT FOUND THEN
          o_ok := false;
          o_reason := 'unknown_organization';
          RETURN;
        END IF;
        EXIT WHEN v_attempt = 2 OR ${s}.release_holds(p_org, NULL) = 0;
      END LOOP;
      o_ok := false;
      o_reason := 'insufficient_credits';
      o_available := greatest(0, v_balance - v_reserved);
    END $$;

    -- Finishes reservation p_id: charges min(p_charged, held), releases the rest, counts the request.
    -- No pending row: a fresh id (a free repeat, or a hold released meanwhile) adds a finished row and
    -- charges at most what no one else holds; an id already finished charges and counts nothing.
    -- With p_key, a charge marks that idempotency claim paid in this same transaction; a claim already
    -- paid is never charged again. Resolves the amount charged.
    CREATE FUNCTION ${s}.settle(p_id text, p_org text, p_search boolean, p_charged bigint, p_answered boolean,
      p_at bigint, p_key text) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      v_held bigint;
      v_paid bigint := 0;
      v_balance bigint;
      v_reserved bigint;
      v_charged bigint;
      v_counted bigint := CASE WHEN p_answered THEN 1 ELSE 0 END;
    BEGIN
      UPDATE ${s}.reservations SET finished = true, owner = NULL WHERE id = p_id AND NOT finished RETURNING amount INTO v_held;
      IF NOT FOUND THEN
        INSERT INTO ${s}.reservations (id, organization, amount, created_at, finished)
          VALUES (p_id, p_org, 0, p_at, true) ON CONFLICT (id) DO NOTHING;
        IF NOT FOUND THEN
          RETURN 0;
        END IF;
        v_held := 0;
      END IF;
      IF p_key IS NOT NULL THEN
        SELECT charged INTO v_paid FROM ${s}.idempotency_claims
          WHERE organization = p_org AND key = p_key AND response IS NULL FOR UPDATE;
        v_paid := coalesce(v_paid, 0);
      END IF;
      SELECT balance, reserved INTO v_balance, v_reserved FROM ${s}.organizations WHERE id = p_org FOR UPDATE;
      IF NOT FOUND THEN
        RETURN 0;
      END IF;
      IF v_paid > 0 THEN
        v_charged := 0;
      ELSIF v_held > 0 THEN
        v_charged := least(p_charged, v_held);
      ELSE
        v_charged := least(p_charged, greatest(0, v_balance - v_reserved));
      END IF;
      UPDATE ${s}.organizations SET
        balance = balance - v_charged,
        used = used + v_charged,
        reserved = reserved - v_held,
        search_requests = search_requests + CASE WHEN p_search THEN v_counted ELSE 0 END,
        extract_requests = extract_requests + CASE WHEN p_search THEN 0 ELSE v_counted END,
        free_requests = free_requests + CASE WHEN p_answered AND v_charged = 0 THEN 1 ELSE 0 END
      WHERE id = p_org;
      IF p_key IS NOT NULL AND v_charged > 0 THEN
        UPDATE ${s}.idempotency_claims SET charged = charged + v_charged
          WHERE organization = p_org AND key = p_key AND response IS NULL;
      END IF;
      RETURN v_charged;
    END $$;

    -- Claims an idempotency key for p_owner (see Ledger.claim). A claim nobody runs any more (its owner
    -- closed or its lease ran out) that was never charged is as good as none, like one dropped by
    -- finish_claim; one that was charged is taken over as 'paid'.
    CREATE FUNCTION ${s}.claim(p_org text, p_key text, p_fingerprint text, p_owner uuid, p_now bigint, p_ttl_ms bigint,
      OUT o_state text, OUT o_response text, OUT o_charged bigint) LANGUAGE plpgsql AS $$
    DECLARE
      v_claim record;
      v_live boolean;
    BEGIN
      LOOP
        SELECT fingerprint, owner, charged, response, created_at INTO v_claim FROM ${s}.idempotency_claims
          WHERE organization = p_org AND key = p_key FOR UPDATE;
        IF NOT FOUND THEN
          INSERT INTO ${s}.idempotency_claims (organization, key, fingerprint, owner, created_at)
            VALUES (p_org, p_key, p_fingerprint, p_owner, p_now) ON CONFLICT DO NOTHING;
          IF FOUND THEN
            o_state := 'claimed';
            RETURN;
          END IF;
          CONTINUE; -- claimed at this very moment by another call: look again (now it is there)
        END IF;
        v_live := v_claim.owner IS NOT NULL AND NOT ${dead('v_claim.owner')};
        -- A key is remembered for [created_at, created_at + TTL): at exactly the TTL it is forgotten.
        IF v_claim.created_at <= p_now - p_ttl_ms OR (v_claim.response IS NULL AND v_claim.charged = 0 AND NOT v_live) THEN
          UPDATE ${s}.idempotency_claims
            SET fingerprint = p_fingerprint, owner = p_owner, charged = 0, response = NULL, created_at = p_now
            WHERE organization = p_org AND key = p_key;
          o_state := 'claimed';
        ELSIF v_claim.fingerprint <> p_fingerprint THEN
          o_state := 'mismatch';
        ELSIF v_claim.response IS NOT NULL THEN
          o_state := 'replay';
          o_response := v_claim.response;
        ELSIF v_live THEN
          o_state := 'in_progress';
        ELSE
          UPDATE ${s}.idempotency_claims SET owner = p_owner WHERE organization = p_org AND key = p_key;
          o_state := 'paid';
          o_charged := v_claim.charged;
        END IF;
        RETURN;
      END LOOP;
    END $$;

    -- Ends p_owner's claim: with a response, later claims replay it; without, an unpaid claim is
    -- dropped (a retry runs afresh) and a paid one is left with no owner (a retry gets 'paid').
    CREATE FUNCTION ${s}.finish_claim(p_org text, p_key text, p_owner uuid, p_response text) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF p_response IS NOT NULL THEN
        UPDATE ${s}.idempotency_claims SET response = p_response, owner = NULL
          WHERE organization = p_org AND key = p_key AND owner = p_owner AND response IS NULL;
        RETURN;
      END IF;
      DELETE FROM ${s}.idempotency_claims
        WHERE organization = p_org AND key = p_key AND owner = p_owner AND response IS NULL AND charged = 0;
      IF NOT FOUND THEN
        UPDATE ${s}.idempotency_claims SET owner = NULL
          WHERE organization = p_org AND key = p_key AND owner = p_owner AND response IS NULL;
      END IF;
    END $$;

    -- Registers or renews p_instance's lease (server time); then, unless another instance is sweeping
    -- right now, releases the holds of every dead instance and forgets the dead instances.
    CREATE FUNCTION ${s}.heartbeat(p_instance uuid, p_lease_ms bigint) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      v_released bigint := 0;
    BEGIN
      INSERT INTO ${s}.instances (id, lease_until) VALUES (p_instance, now() + p_lease_ms * interval '1 millisecond')
        ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until;
      IF pg_try_advisory_xact_lock(${sweepLock}) THEN
        v_released := ${s}.release_holds(NULL, NULL);
        DELETE FROM ${s}.instances WHERE lease_until <= now();
      END IF;
      RETURN v_released;
    END $$;

    -- A clean close: releases p_instance's pending holds and removes its row (its claims then have a dead owner).
    CREATE FUNCTION ${s}.close_instance(p_instance uuid) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      v_released bigint := ${s}.release_holds(NULL, p_instance);
    BEGIN
      DELETE FROM ${s}.instances WHERE id = p_instance;
      RETURN v_released;
    END $$;

    -- Deletes one chunk of old rows: finished reservations dated up to p_trace_before, claims up to
    -- p_claims_before. Rows locked elsewhere are skipped. Resolves the larger of the two counts.
    CREATE FUNCTION ${s}.prune(p_trace_before bigint, p_claims_before bigint, p_chunk integer) RETURNS integer LANGUAGE plpgsql AS $$
    DECLARE
      v_trace integer;
      v_claims integer;
    BEGIN
      DELETE FROM ${s}.reservations WHERE id IN (
        SELECT id FROM ${s}.reservations WHERE finished AND created_at <= p_trace_before LIMIT p_chunk FOR UPDATE SKIP LOCKED);
      GET DIAGNOSTICS v_trace = ROW_COUNT;
      DELETE FROM ${s}.idempotency_claims WHERE (organization, key) IN (
        SELECT organization, key FROM ${s}.idempotency_claims WHERE created_at <= p_claims_before LIMIT p_chunk FOR UPDATE SKIP LOCKED);
      GET DIAGNOSTICS v_claims = ROW_COUNT;
      RETURN greatest(v_trace, v_claims);
    END $$;`;
}
