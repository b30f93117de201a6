# Sourced by the mongo image's entrypoint from /docker-entrypoint-initdb.d, once, on an empty
# volume, after it created the root user: the service's own user, with readWrite on its database
# only. Authenticates as root because the key file turns access control on during the init too.
mongosh --quiet --host 127.0.0.1 --port 27017 \
  --username "$MONGO_INITDB_ROOT_USERNAME" --password "$MONGO_INITDB_ROOT_PASSWORD" --authenticationDatabase admin \
  admin --eval '
    db.createUser({
      user: process.env.BAHI_MONGO_USER,
      pwd: process.env.BAHI_MONGO_PASSWORD,
      roles: [{ role: "readWrite", db: process.env.BAHI_MONGO_DB }],
    });
    print("created MongoDB user " + process.env.BAHI_MONGO_USER + " (readWrite on " + process.env.BAHI_MONGO_DB + ")");
  '
