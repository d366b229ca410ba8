"""benchmarks/encoder_digest.py: the fingerprint that shows an encoder change left the vectors as they were."""

from benchmarks import encoder_digest


def test_the_digest_repeats_and_sees_a_changed_vector(monkeypatch, capsys):
    first = encoder_digest.main(["--games", "2"])
    again = encoder_digest.main(["--games", "2"])
    assert (again["sha256"], again["observations"], again["states"]) == (first["sha256"], first["observations"],
                                                                         first["states"])
    assert first["observations"] > 2 * 3 * 20 and first["states"] > 2 * 20
    assert first["sha256"] in capsys.readouterr().out
    real = encoder_digest.observation_vector

    def nudged(known):
        vector = real(known)
        vector[0] += 1e-6 if known["round"] == 9 else 0.0
        return vector

    monkeypatch.setattr(encoder_digest, "observation_vector", nudged)
    assert encoder_digest.main(["--games", "2"])["sha256"] != first["sha256"]
