/**
 * Public keys for tests: the classic types made with ssh-keygen (OpenSSH 9), the FIDO (sk-) types
 * assembled in the OpenSSH wire format from real P-256 and Ed25519 key material (no authenticator
 * needed). No comments; tests add their own.
 */
export const KEYS = {
  rsa: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQClnkwIXBQ47Lq0Y6G0426MtZXmoDLbeTgEqhXUJYHxcj170IjOC0UrSDPrCwC9iyU0W8jSh/wvKbRGCRPAv4rgEJ5Yv9pXZLZJ/slz/EdrrLCMJsDQ+R52HkbbnV57M+7MnPZhjIlBoQ2ZRVdIsTDpu93fmrl8GGXe3BseDwRdtXQ+uNRkvmI1Khjrul+NZ5sEzV7GEuhgLyQjjXxoG7jaXtie5OM8OevEdjuIzql7TsQ/EYIgtTkaUv01lfq3l4LCrfUFo+dJE8eQVtQ04Af2+I0eIOEsjE3DSLNHoM5GDe1QEFiJr37+20pVPvinf44YndGiMnEZpDpHe1YCHOb1',
  dss: 'ssh-dss AAAAB3NzaC1kc3MAAACBALDLl39eEywqxnruF2YjC5fnJMy+SgF0FD5/xN5DqEGLYHh9vDHZexED4RYRc0HSXfDoKhspqMbLB03Cl4gWu178k2Yph+3mQ7sZW2uTqSF0AkGy+p1vtMew3P+GCMSznt4G/+tPwqBlzTwCLsnqKaSwz3wRSrGWO9rx1Oqka8AbAAAAFQCFoG/yzvPT7OR2oa7w0Efzxal22QAAAIEAnvtDikbGcuSmdYn2Ub8C5zbI6vz5N+0N0U7MoMDtvQnJriFLyzRaRaZgW9ZwCuTVKYUicH26sJ5J/dwbOiznVsjWR8mja6i2m2ewAXp556FEm1c2VsWbVRfvL3hMWdCpAg4nmPa3At1Eb11FjFqZj1MsU+2DrSupjsRE1wmVVwwAAACARTURGxQwFL3nrw5JE+FVHtAVqOH6N7kn+STlOY8w47JJWWV0Sb7go5Kqvgme6+KQ5GEGIgeHCsaYXRJDWuQfn7v2u/bWxRProOGPQE0ASs6vArmrbmf+R6NC0u0FCTNlwzeiCV+2UD5GMdtGBqirQDyu6B6gBS9ff5qlUvnHYXo=',
  ecdsa256:
    'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBC2gXJfOr/Qgdxn8zkQ3nbkMJFANJbPzoZWE2ghSiR5Tgywz7Kv0HFTV4t+awGv30jI5bVzxon56aj3++Wu3q0E=',
  ecdsa384:
    'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBH/so7C+H/G0o/Tsg0nzRZEo/vHEB/0jofYrdJBiU9edOYPBuAp3T58mlJHTM8NHUsXSp6baNlcgeoNpUvZyQVbtJ2Czp7Sx0CiFbsA2pnK95qoERP0qomdiBqGnBI5I0A==',
  ecdsa521:
    'ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBAGxAwLFd1t0sRxL8QYdyPt/s/K+4JNeKVtcUow0Q2tQw9/EIu+EceO9/Or/Ts2OjJp8q8iX8Luap2j/bwsfMShMrwEIZglJ/cdjF6oahaFOo3PFWZjaVK8DhPQrIivjPO31oJ7C/FAYa+94Xu2+TAM0dHKud3woS5fccmXVj8y8f7PgOA==',
  ed25519: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIM5cGHw9iymea0uIr2SWyQksi/Wq1eVaZpIO+80qqvKz',
  skEcdsa:
    'sk-ecdsa-sha2-nistp256@openssh.com AAAAInNrLWVjZHNhLXNoYTItbmlzdHAyNTZAb3BlbnNzaC5jb20AAAAIbmlzdHAyNTYAAABBBC2gXJfOr/Qgdxn8zkQ3nbkMJFANJbPzoZWE2ghSiR5Tgywz7Kv0HFTV4t+awGv30jI5bVzxon56aj3++Wu3q0EAAAAEc3NoOg==',
  skEd25519:
    'sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAIM5cGHw9iymea0uIr2SWyQksi/Wq1eVaZpIO+80qqvKzAAAABHNzaDo=',
} as const
