#include "app/web_push_crypto.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

#include <boost/json.hpp>
#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>
#include <vector>

#include "app/key_file.hpp"
#include "core/web_push.hpp"

namespace wharf::app {
namespace {

using Bytes = std::vector<std::uint8_t>;

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using PKey = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using PKeyCtx = std::unique_ptr<EVP_PKEY_CTX, Deleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, Deleter<EVP_CIPHER_CTX, EVP_CIPHER_CTX_free>>;
using Bignum = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using ParamBld = std::unique_ptr<OSSL_PARAM_BLD, Deleter<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using Params = std::unique_ptr<OSSL_PARAM, Deleter<OSSL_PARAM, OSSL_PARAM_free>>;
using EcdsaSig = std::unique_ptr<ECDSA_SIG, Deleter<ECDSA_SIG, ECDSA_SIG_free>>;

constexpr char kCurve[] = "prime256v1";

// An OpenSSL key from bytes: a public key alone (a browser's), or a pair.
PKey make_key(std::span<const std::uint8_t> public_key,
              std::optional<std::span<const std::uint8_t>> private_key) {
  ParamBld bld(OSSL_PARAM_BLD_new());
  if (!bld) return nullptr;
  Bignum priv;
  if (private_key) {
    priv.reset(BN_bin2bn(private_key->data(), static_cast<int>(private_key->size()), nullptr));
    if (!priv) return nullptr;
  }
  if (OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, kCurve, 0) != 1 ||
      OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, public_key.data(),
                                       public_key.size()) != 1 ||
      (priv && OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_PRIV_KEY, priv.get()) != 1))
    return nullptr;
  Params params(OSSL_PARAM_BLD_to_param(bld.get()));
  PKeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1) return nullptr;
  EVP_PKEY* raw = nullptr;
  int selection = private_key ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
  if (EVP_PKEY_fromdata(ctx.get(), &raw, selection, params.get()) != 1) return nullptr;
  PKey key(raw);
  // fromdata takes the bytes as given: the point on the curve, and the pair a pair, are
  // checked here.
  PKeyCtx check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  if (!check) return nullptr;
  int ok = private_key ? EVP_PKEY_pairwise_check(check.get()) : EVP_PKEY_public_check(check.get());
  return ok == 1 ? std::move(key) : nullptr;
}

core::Result<P256KeyPair> pair_bytes(EVP_PKEY* key) {
  P256KeyPair pair;
  BIGNUM* raw = nullptr;
  if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &raw) != 1)
    return core::Error{"cannot read the generated key", "internal"};
  Bignum priv(raw);
  std::size_t length = 0;
  if (BN_bn2binpad(priv.get(), pair.private_key.data(), 32) != 32 ||
      EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, pair.public_key.data(),
                                      pair.public_key.size(), &length) != 1 ||
      length != pair.public_key.size() || pair.public_key[0] != 0x04)
    return core::Error{"cannot read the generated key", "internal"};
  return pair;
}

PKey generate_key() {
  return PKey(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", kCurve));
}

std::array<std::uint8_t, 32> hmac_sha256(std::span<const std::uint8_t> key,
                                         std::span<const std::uint8_t> data) {
  std::array<std::uint8_t, 32> out{};
  unsigned length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), data.data(), data.size(), out.data(),
       &length);
  return out;
}

// HKDF-Expand (RFC 5869) for one block: every output here is at most 32 bytes.
Bytes hkdf_expand_one(std::span<const std::uint8_t> prk, std::string_view info_text,
                      std::span<const std::uint8_t> info_tail, std::size_t length) {
  Bytes info(info_text.begin(), info_text.end());
  info.insert(info.end(), info_tail.begin(), info_tail.end());
  info.push_back(0x01);
  auto block = hmac_sha256(prk, info);
  return Bytes(block.begin(), block.begin() + static_cast<std::ptrdiff_t>(length));
}

std::string signing_input_of(std::string_view token) {
  std::size_t last = token.rfind('.');
  return last == std::string_view::npos ? std::string() : std::string(token.substr(0, last));
}

}  // namespace

core::Result<P256KeyPair> generate_p256_key_pair() {
  PKey key = generate_key();
  if (!key) return core::Error{"cannot generate a P-256 key", "internal"};
  return pair_bytes(key.get());
}

core::Result<P256KeyPair> p256_key_pair(std::span<const std::uint8_t> private_key,
                                        std::span<const std::uint8_t> public_key) {
  P256KeyPair pair;
  if (private_key.size() != pair.private_key.size() || public_key.size() != pair.public_key.size())
    return core::Error{"a P-256 key pair is 32 and 65 bytes", "bad_argument"};
  if (!make_key(public_key, private_key))
    return core::Error{"the two keys are not one P-256 key pair", "bad_argument"};
  std::copy(private_key.begin(), private_key.end(), pair.private_key.begin());
  std::copy(public_key.begin(), public_key.end(), pair.public_key.begin());
  return pair;
}

core::Result<P256KeyPair> load_or_create_vapid_keys(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    auto made = generate_p256_key_pair();
    if (!made) return made;
    boost::json::object obj{{"private", core::base64url_encode(made.value().private_key)},
                            {"public", core::base64url_encode(made.value().public_key)}};
    if (auto written = write_private_file(file, boost::json::serialize(obj) + "\n"); !written)
      return written.error();
    return made;
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return core::Error{"cannot read " + file.string()};
  boost::system::error_code parse_error;
  boost::json::value value = boost::json::parse(text.str(), parse_error);
  const boost::json::object* obj = !parse_error ? value.if_object() : nullptr;
  const boost::json::value* priv = obj ? obj->if_contains("private") : nullptr;
  const boost::json::value* pub = obj ? obj->if_contains("public") : nullptr;
  auto priv_bytes =
      priv && priv->is_string() ? core::base64url_decode(priv->get_string()) : std::nullopt;
  auto pub_bytes =
      pub && pub->is_string() ? core::base64url_decode(pub->get_string()) : std::nullopt;
  if (!priv_bytes || !pub_bytes)
    return core::Error{file.string() +
                       " is not a VAPID key file (move it away to make a new "
                       "key; browsers then subscribe again)"};
  auto pair = p256_key_pair(*priv_bytes, *pub_bytes);
  if (!pair) return core::Error{file.string() + ": " + pair.error().message};
  return pair;
}

core::Result<std::string> vapid_token(const P256KeyPair& keys, std::string_view audience,
                                      std::string_view subject, std::int64_t expires_at) {
  boost::json::object claims{{"aud", audience}, {"exp", expires_at}, {"sub", subject}};
  std::string input = core::base64url_encode(std::string_view(R"({"typ":"JWT","alg":"ES256"})")) +
                      "." + core::base64url_encode(boost::json::serialize(claims));
  PKey key = make_key(keys.public_key, std::span<const std::uint8_t>(keys.private_key));
  MdCtx md(EVP_MD_CTX_new());
  std::size_t der_length = 0;
  if (!key || !md || EVP_DigestSignInit(md.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1 ||
      EVP_DigestSign(md.get(), nullptr, &der_length,
                     reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1)
    return core::Error{"cannot sign the VAPID token", "internal"};
  Bytes der(der_length);
  if (EVP_DigestSign(md.get(), der.data(), &der_length,
                     reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1)
    return core::Error{"cannot sign the VAPID token", "internal"};
  // JWS wants r || s, 32 bytes each (RFC 7518 3.4), not OpenSSL's DER.
  const unsigned char* cursor = der.data();
  EcdsaSig sig(d2i_ECDSA_SIG(nullptr, &cursor, static_cast<long>(der_length)));
  std::array<std::uint8_t, 64> raw{};
  if (!sig || BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), raw.data(), 32) != 32 ||
      BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), raw.data() + 32, 32) != 32)
    return core::Error{"cannot sign the VAPID token", "internal"};
  return input + "." + core::base64url_encode(raw);
}

std::string vapid_authorization(const P256KeyPair& keys, std::string_view token) {
  return "vapid t=" + std::string(token) + ", k=" + core::base64url_encode(keys.public_key);
}

bool verify_es256_token(std::span<const std::uint8_t> public_key, std::string_view token) {
  std::string input = signing_input_of(token);
  auto raw = core::base64url_decode(token.substr(input.size() + (input.empty() ? 0 : 1)));
  if (input.empty() || !raw || raw->size() != 64) return false;
  PKey key = make_key(public_key, std::nullopt);
  EcdsaSig sig(ECDSA_SIG_new());
  if (!key || !sig) return false;
  BIGNUM* r = BN_bin2bn(raw->data(), 32, nullptr);
  BIGNUM* s = BN_bin2bn(raw->data() + 32, 32, nullptr);
  if (ECDSA_SIG_set0(sig.get(), r, s) != 1) {
    BN_free(r);
    BN_free(s);
    return false;
  }
  unsigned char* der = nullptr;
  int der_length = i2d_ECDSA_SIG(sig.get(), &der);
  if (der_length <= 0) return false;
  MdCtx md(EVP_MD_CTX_new());
  bool good =
      md && EVP_DigestVerifyInit(md.get(), nullptr, EVP_sha256(), nullptr, key.get()) == 1 &&
      EVP_DigestVerify(md.get(), der, static_cast<std::size_t>(der_length),
                       reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
  OPENSSL_free(der);
  return good;
}

core::Result<std::string> encrypt_push_message(std::string_view plaintext,
                                               std::span<const std::uint8_t> ua_public,
                                               std::span<const std::uint8_t> auth_secret,
                                               const PushKeysForTest* fixed) {
  if (plaintext.size() > kMaxPushPlaintext)
    return core::Error{"a push message is at most " + std::to_string(kMaxPushPlaintext) + " bytes",
                       "too_large"};
  if (ua_public.size() != core::kPushPublicKeyBytes || auth_secret.size() != core::kPushAuthBytes)
    return core::Error{"the subscription's keys have the wrong size", "bad_argument"};
  PKey peer = make_key(ua_public, std::nullopt);
  if (!peer) return core::Error{"the subscription's key is not a P-256 point", "bad_argument"};

  // The sender's one-time key and the salt (RFC 8291 section 3.1, RFC 8188 section 2.1).
  PKey sender;
  P256KeyPair sender_bytes;
  std::array<std::uint8_t, 16> salt{};
  if (fixed != nullptr) {
    sender_bytes = fixed->sender;
    salt = fixed->salt;
    sender =
        make_key(sender_bytes.public_key, std::span<const std::uint8_t>(sender_bytes.private_key));
  } else {
    sender = generate_key();
    if (sender) {
      auto bytes = pair_bytes(sender.get());
      if (!bytes) return bytes.error();
      sender_bytes = bytes.value();
    }
    if (RAND_bytes(salt.data(), static_cast<int>(salt.size())) != 1)
      return core::Error{"cannot read random bytes", "internal"};
  }
  if (!sender) return core::Error{"cannot make the sender's key", "internal"};

  // ecdh_secret = ECDH(as_private, ua_public)
  PKeyCtx derive(EVP_PKEY_CTX_new_from_pkey(nullptr, sender.get(), nullptr));
  std::array<std::uint8_t, 32> ecdh_secret{};
  std::size_t secret_length = ecdh_secret.size();
  if (!derive || EVP_PKEY_derive_init(derive.get()) != 1 ||
      EVP_PKEY_derive_set_peer(derive.get(), peer.get()) != 1 ||
      EVP_PKEY_derive(derive.get(), ecdh_secret.data(), &secret_length) != 1 || secret_length != 32)
    return core::Error{"cannot agree a key with the subscription", "internal"};

  // PRK_key = HMAC(auth_secret, ecdh_secret); IKM = HKDF-Expand(PRK_key, key_info, 32)
  auto prk_key = hmac_sha256(auth_secret, ecdh_secret);
  Bytes key_tail;
  key_tail.push_back(0x00);
  key_tail.insert(key_tail.end(), ua_public.begin(), ua_public.end());
  key_tail.insert(key_tail.end(), sender_bytes.public_key.begin(), sender_bytes.public_key.end());
  Bytes ikm = hkdf_expand_one(prk_key, "WebPush: info", key_tail, 32);
  // PRK = HMAC(salt, IKM); CEK and NONCE from it (RFC 8188 section 2.2, 2.3).
  auto prk = hmac_sha256(salt, ikm);
  const std::uint8_t zero[] = {0x00};
  Bytes cek = hkdf_expand_one(prk, "Content-Encoding: aes128gcm", zero, 16);
  Bytes nonce = hkdf_expand_one(prk, "Content-Encoding: nonce", zero, 12);

  // One record, the last: the message, then the delimiter 0x02 and no padding.
  Bytes record(plaintext.begin(), plaintext.end());
  record.push_back(0x02);
  CipherCtx cipher(EVP_CIPHER_CTX_new());
  Bytes sealed(record.size() + 16);
  int out_length = 0;
  int final_length = 0;
  if (!cipher ||
      EVP_EncryptInit_ex(cipher.get(), EVP_aes_128_gcm(), nullptr, cek.data(), nonce.data()) != 1 ||
      EVP_EncryptUpdate(cipher.get(), sealed.data(), &out_length, record.data(),
                        static_cast<int>(record.size())) != 1 ||
      EVP_EncryptFinal_ex(cipher.get(), sealed.data() + out_length, &final_length) != 1 ||
      EVP_CIPHER_CTX_ctrl(cipher.get(), EVP_CTRL_GCM_GET_TAG, 16,
                          sealed.data() + out_length + final_length) != 1)
    return core::Error{"cannot encrypt the push message", "internal"};

  // Header: salt(16) || rs(4, big-endian) || idlen(1) || keyid (the sender's public key).
  std::string body;
  body.reserve(86 + sealed.size());
  body.append(reinterpret_cast<const char*>(salt.data()), salt.size());
  for (int shift = 24; shift >= 0; shift -= 8)
    body.push_back(static_cast<char>((kPushRecordSize >> shift) & 0xff));
  body.push_back(static_cast<char>(sender_bytes.public_key.size()));
  body.append(reinterpret_cast<const char*>(sender_bytes.public_key.data()),
              sender_bytes.public_key.size());
  body.append(reinterpret_cast<const char*>(sealed.data()), sealed.size());
  return body;
}

}  // namespace wharf::app
