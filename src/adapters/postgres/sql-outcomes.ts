// Migration 2's PL/pgSQL functions: honest books through a lost reply, and bounded idempotency storage.
// - settle_traced: settle() that also records on the finished row what it charged, in the same
//   transaction, so an outcome can be read back.
// - settle_again: after a settlement's reply was lost, tells what happened: the recorded charge of the
//   id if it finished, else settles it now. Either way the caller learns the truth in one round trip.
// - void_settlement: an unkeyed settlement whose outcome stayed unknown (the caller was told 503,
//   nothing charged) is made true: a pending hold is released and the id finished, so a late copy of
//   the settlement charges nothing; one that did commit is refunded, once.
// - claim, finish_claim, prune (replacing migration 1's): an answer delivered but not stored ('') is
//   replayed as `paid` (a free rerun), and the bytes of stored answers are counted per organization
//   (organizations.answer_bytes) so finish_claim stores an answer only under the organization's cap.
// Locks are taken in migration 1's order: reservation row, claim row, organization row.

export function outcomeFunctions(s: string): string {
  const dead = (owner: string) => `NOT EXISTS (SELECT 1 FROM ${s}.instances i WHERE i.id = ${owner} AND i.lease_until > now())`;
  return `
    CREATE FUNCTION ${s}.settle_traced(p_id text, p_org text, p_search boolean, p_charged bigint, p_answered boolean,
      p_at bigint, p_key text) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      v_charged bigint := ${s}.settle(p_id, p_org, p_search, p_charged, p_answered, p_at, p_key);
    BEGIN
      IF v_charged > 0 THEN
        UPDATE ${s}.reservations SET charged = v_charged WHERE id = p_id;
      END IF;
      RETURN v_charged;
    END $$;

    -- o_state: 'settled' (o_charged: what the settlement of p_id charged, now or before) or 'voided'
    -- (a void got there first: nothing is charged).
    CREATE FUNCTION ${s}.settle_again(p_id text, p_org text, p_search boolean, p_charged bigint, p_answered boolean,
      p_at bigint, p_key text, OUT o_state text, OUT o_charged bigint) LANGUAGE plpgsql AS $$
    DECLARE
      v_row record;
    BEGIN
      SELECT finished, charged, voided INTO v_row FROM ${s}.reservations WHERE id = p_id FOR UPDATE;
      IF FOUND AND v_row.finished THEN
        o_state := CASE WHEN v_row.voided THEN 'voided' ELSE 'settled' END;
        o_charged := CASE WHEN v_row.voided THEN 0 ELSE v_row.charged END;
        RETURN;
      END IF;
      o_state := 'settled';
      o_charged := ${s}.settle_traced(p_id, p_org, p_search, p_charged, p_answered, p_at, p_key);
    END $$;

    -- Resolves what it refunded (0 when the settlement never committed).
    CREATE FUNCTION ${s}.void_settlement(p_id text, p_org text, p_at bigint) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      v_held bigint;
      v_charged bigint;
    BEGIN
      UPDATE ${s}.reservations SET finished = true, owner = NULL, voided = true WHERE id = p_id AND NOT finished
        RETURNING amount INTO v_held;
      IF FOUND THEN
        UPDATE ${s}.organizations SET reserved = greatest(0, reserved - v_held) WHERE id = p_org;
        RETURN 0;
      END IF;
      -- No row (a hold released meanwhile, or a settlement never reserved): a finished, voided one.
      INSERT INTO ${s}.reservations (id, organization, amount, created_at, finished, voided)
        VALUES (p_id, p_org, 0, p_at, true, true) ON CONFLICT (id) DO NOTHING;
      IF FOUND THEN
        RETURN 0;
      END IF;
      UPDATE ${s}.reservations SET voided = true WHERE id = p_id AND finished AND NOT voided RETURNING charged INTO v_charged;
      IF NOT FOUND OR v_charged = 0 THEN
        RETURN 0;
      END IF;
      -- The caller was answered 503: the request stays counted, as a free one.
      UPDATE ${s}.organizations SET balance = balance + v_charged, used = greatest(0, used - v_charged),
        free_requests = free_requests + 1 WHERE id = p_org;
      RETURN v_charged;
    END $$;

    CREATE OR REPLACE FUNCTION ${s}.claim(p_org text, p_key text, p_fingerprint text, p_owner uuid, p_now bigint, p_ttl_ms bigint,
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
        IF v_claim.created_at <= p_now - p_ttl_ms OR (v_claim.response IS NULL AND v_claim.charged = 0 AND NOT v_live) THEN
          IF coalesce(octet_length(v_claim.response), 0) > 0 THEN
            UPDATE ${s}.organizations SET answer_bytes = greatest(0, answer_bytes - octet_length(v_claim.response)) WHERE id = p_org;
          END IF;
          UPDATE ${s}.idempotency_claims
            SET fingerprint = p_fingerprint, owner = p_owner, charged = 0, response = NULL, created_at = p_now
            WHERE organization = p_org AND key = p_key;
          o_state := 'claimed';
        ELSIF v_claim.fingerprint <> p_fingerprint THEN
          o_state := 'mismatch';
        ELSIF v_claim.response <> '' THEN
          o_state := 'replay';
          o_response := v_claim.response;
        ELSIF v_live THEN
          o_state := 'in_progress';
        ELSE
          -- Paid and its answer lost, or answered without storing it (''): rerun free.
          UPDATE ${s}.idempotency_claims SET owner = p_owner WHERE organization = p_org AND key = p_key;
          o_state := 'paid';
          o_charged := v_claim.charged;
        END IF;
        RETURN;
      END LOOP;
    END $$;

    -- Ends p_owner's claim. With a response: stored if the organization's stored answers stay within
    -- p_cap bytes, else kept as '' (answered, not stored); resolves whether it was stored. Without: an
    -- unpaid claim is dropped (a retry runs afresh), a paid or answered one is left with no owner.
    DROP FUNCTION ${s}.finish_claim(text, text, uuid, text);
    CREATE FUNCTION ${s}.finish_claim(p_org text, p_key text, p_owner uuid, p_response text, p_cap bigint)
      RETURNS boolean LANGUAGE plpgsql AS $$
    DECLARE
      v_bytes bigint := coalesce(octet_length(p_response), 0);
      v_store boolean := false;
    BEGIN
      PERFORM 1 FROM ${s}.idempotency_claims
        WHERE organization = p_org AND key = p_key AND owner = p_owner AND coalesce(response, '') = '' FOR UPDATE;
      IF NOT FOUND THEN
        RETURN false;
      END IF;
      IF p_response IS NOT NULL THEN
        IF v_bytes > 0 THEN
          UPDATE ${s}.organizations SET answer_bytes = answer_bytes + v_bytes WHERE id = p_org AND answer_bytes + v_bytes <= p_cap;
          v_store := FOUND;
        END IF;
        UPDATE ${s}.idempotency_claims SET response = CASE WHEN v_store THEN p_response ELSE '' END, owner = NULL
          WHERE organization = p_org AND key = p_key;
        RETURN v_store;
      END IF;
      DELETE FROM ${s}.idempotency_claims
        WHERE organization = p_org AND key = p_key AND response IS NULL AND charged = 0;
      IF NOT FOUND THEN
        UPDATE ${s}.idempotency_claims SET owner = NULL WHERE organization = p_org AND key = p_key;
      END IF;
      RETURN false;
    END $$;

    CREATE OR REPLACE FUNCTION ${s}.prune(p_trace_before bigint, p_claims_before bigint, p_chunk integer) RETURNS integer LANGUAGE plpgsql AS $$
    DECLARE
      v_trace integer;
      v_claims integer;
      v_orgs text[];
      v_bytes bigint[];
    BEGIN
      DELETE FROM ${s}.reservations WHERE id IN (
        SELECT id FROM ${s}.reservations WHERE finished AND created_at <= p_trace_before LIMIT p_chunk FOR UPDATE SKIP LOCKED);
      GET DIAGNOSTICS v_trace = ROW_COUNT;
      WITH gone AS (
        DELETE FROM ${s}.idempotency_claims WHERE (organization, key) IN (
          SELECT organization, key FROM ${s}.idempotency_claims WHERE created_at <= p_claims_before LIMIT p_chunk FOR UPDATE SKIP LOCKED)
        RETURNING organization, coalesce(octet_length(response), 0) AS bytes)
      SELECT array_agg(organization ORDER BY organization), array_agg(total ORDER BY organization), coalesce(sum(n), 0)
        INTO v_orgs, v_bytes, v_claims
      FROM (SELECT organization, sum(bytes)::bigint AS total, count(*) AS n FROM gone GROUP BY organization) g;
      FOR i IN 1 .. coalesce(array_length(v_orgs, 1), 0) LOOP
        IF v_bytes[i] > 0 THEN
          UPDATE ${s}.organizations SET answer_bytes = greatest(0, answer_bytes - v_bytes[i]) WHERE id = v_orgs[i];
        END IF;
      END LOOP;
      RETURN greatest(v_trace, v_claims);
    END $$;`;
}
