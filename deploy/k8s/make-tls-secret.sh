#!/usr/bin/env bash
# Makes the toolcoach-tls Secret the pods mount: one PKCS12 store holding the cluster's key and certificate,
# used by every node as its key store and its trust store (mutual TLS; see ArteryTls), and its password.
# Usage: deploy/k8s/make-tls-secret.sh [namespace]     (needs keytool from a JDK, and kubectl)
set -euo pipefail
namespace="${1:-default}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
password="$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
keytool -genkeypair -alias toolcoach -keyalg EC -groupname secp256r1 -dname "CN=toolcoach-cluster" \
  -validity 365 -storetype PKCS12 -keystore "$work/node.p12" -storepass "$password" -keypass "$password"
kubectl -n "$namespace" create secret generic toolcoach-tls \
  --from-file=node.p12="$work/node.p12" --from-literal=password="$password"
echo "secret toolcoach-tls created in namespace $namespace; the certificate expires in 365 days"
