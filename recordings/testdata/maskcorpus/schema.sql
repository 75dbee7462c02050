-- users and their API tokens
CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL, password_hash text NOT NULL, api_token text);
UPDATE users SET api_token=md5(random()::text) WHERE api_token IS NULL;
UPDATE users SET token=NULL WHERE id=$1;
SELECT id FROM users WHERE email = $1 AND password_hash = crypt($2, password_hash);
SELECT count(*) FROM sessions WHERE token=$1 AND expires>now();
INSERT INTO settings(key, value) VALUES ('max_tokens', '4096'), ('token_type', 'bearer');
