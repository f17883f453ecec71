-- Every replica caches the public key lookup's answers; a change to what the lookup answers
-- (a new bundle, its feedback message or policy, its deletion) tells them all to forget the key.
CREATE OR REPLACE FUNCTION notify_bundle_key_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('bundle_key_changed', NEW.key);
  IF TG_OP = 'UPDATE' AND OLD.key IS DISTINCT FROM NEW.key THEN
    PERFORM pg_notify('bundle_key_changed', OLD.key);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER bundles_key_changed
AFTER INSERT OR UPDATE OF key, policy_slug, feedback_message, deleted_at ON bundles
FOR EACH ROW EXECUTE FUNCTION notify_bundle_key_changed();
