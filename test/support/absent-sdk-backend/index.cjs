// @reflag/node-sdk depends on @aws-sdk/client-s3, @googleapis/storage and @redis/client (~48 MB installed) but only
// loads them, lazily, when an S3, GCS or Redis flags fallback provider is configured, which no Flagmount test does.
// The root package.json's `overrides` installs this package in their place, so a fresh clone's `npm ci` stays lean;
// an app that installs the SDK itself gets the real ones. Loading this means a test started using such a provider.
throw new Error(
  "@reflag/node-sdk's S3/GCS/Redis fallback-provider backends are not installed in Flagmount's dev tree " +
    '(root package.json `overrides`, docs/development.md); install the real package to test such a provider.',
);
