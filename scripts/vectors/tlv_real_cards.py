#!/usr/bin/env python3
"""Writes Tests/EMVTests/Vectors/tlv-real-cards.json: responses of two real (expired, deactivated) payment cards.

The hex below is copied from the published NFC reader logs in the repository
vindastar/Android_HCE_Emulate_A_CreditCard (a fork of AndroidCrypto's Android_HCE_Emulate_A_CreditCard), files
"Visa Card APDU Commands and Responses.md" (a Lloyds Bank Visa Debit, commit 17ab734b10f928f5e6fdde63e13092fa5933538e)
and "Mastercard APDU Commands and Responses.md" (an AAB Bank Debit Mastercard, commit
1a1be9bc4f0ec47e1c0768a2f30388e31c754ba1). Status words (9000) are removed. Each response is checked here with pyemv:
it must decode, and pyemv.tlv.encode of the decoding must give the same bytes back; pyemv's decoding is stored.
"""

import json

import pyemv
from pyemv import tlv

LOGS = "vindastar/Android_HCE_Emulate_A_CreditCard"
VISA = [
    ("SELECT PPSE", "00a404000e325041592e5359532e444446303100",
     "6f2b840e325041592e5359532e4444463031a519bf0c1661144f07a00000000310109f0a0800010501000000009000"),
    ("SELECT A0000000031010", "00a4040007a000000003101000",
     "6f5d8407a0000000031010a5525010564953412044454249542020202020208701029f38189f66049f02069f03069f1a0295055f2a02"
     "9a039c019f37045f2d02656ebf0c1a9f5a0531082608269f0a080001050100000000bf6304df2001809000"),
    ("GET PROCESSING OPTIONS", "80a8000023832127000000000000001000000000000000097800000000000978230301003839303100",
     "7781c68202200094041003060057134921828094896752d25022013650000000000f9f100706040a03a020009f2608569f946d585cb0"
     "139f2701809f360203a49f4b818076f770b228b28c0b5a3f2b08c3f2ec3be6de27a2708de06180fdaaec5482e38cd62d5fe43cfcc8c3"
     "ff7462d7be99deb035a0abe5d0f82bdadbfb5d81377c42ae64f3339893df51e55f635251d1e1b0f4db959e60407684e03c92b5b0c06f"
     "cf5fa5bb366ec660f9d0b0dc3795eae505b5d2c982352c762f06c32647e0068f28469f6c0216009000"),
    ("READ RECORD SFI 2 record 3", "00b2031400",
     "7081fb9081f830f056de40a950bec2a870c59d5462222605a8f31cdef39a0537c7c175115e352ad0c55470fce5737c4e769897623e01"
     "401da73e01644bb0b491aa1aadb27fc360c0089f7c2e52a64e96a3f8a59f76e49aa6dd9a6792644f2b0b513b1a1a93b98a3cc19f0bec"
     "45e9f8edd70f893a8cafb21b62f3b8f15983775f14fd16cb36a19120e5a5068ef9f05ffaea4e714d80f134a298d167a65a92f6f57963"
     "db94ab5d3967f6675b3609a0fceb5fbb70f07cfdeab1352c6a34d6be737aa74848f3f56932f08b51f54aa3040f1ace4a0ced38684df9"
     "00a395c5cd88562eb2af8d35601210c20d6c3425dcd813b9b358d1356d52a8ebd8fb5a19915d9000"),
    ("READ RECORD SFI 2 record 4", "00b2041400", "70078f01099f3201039000"),
    ("READ RECORD SFI 2 record 5", "00b2051400",
     "7081b49f4681b047461ffca14b5dfdc209569c8a14f17644251aa3f4abea251262134b920982f0250741f96fccb40800293054c0d898"
     "24ba7ac44ee7bab06fa157fccf7e52d3c64b4d8acd41b9774b801519ed6fec827ec2ec29f8991167c453776559a4a06fd98c4b9bd154"
     "8a65af2f56002a836bdf9a040a9253e653584c92833c3d1aa8e08c4de9cda1026044f80f39a9326a57496598987a6b3e18a5f56a8bde"
     "de752870e8793776db9d325ccd9c7ca5db33c28f049000"),
    ("READ RECORD SFI 2 record 6", "00b2061400",
     "702e9f4701035a0849218280948967525f3401005f24032502285f280208269f6e04207000009f690701b4cba8d616009000"),
]
MASTERCARD = [
    ("SELECT PPSE", "00a404000e325041592e5359532e444446303100",
     "6f3c840e325041592e5359532e4444463031a52abf0c2761254f07a000000004101050104465626974204d61737465724361726487"
     "01019f0a04000101019000"),
    ("SELECT A0000000041010", "00a4040007a000000004101000",
     "6f528407a0000000041010a54750104465626974204d6173746572436172649f12104465626974204d617374657243617264870101"
     "9f1101015f2d046465656ebf0c119f0a04000101019f6e07028000003030009000"),
    ("GET PROCESSING OPTIONS", "80a8000002830000", "771282021980940c0801010010010101200102009000"),
    ("READ RECORD SFI 1 record 1", "00b2010c00",
     "70759f6c0200019f6206000000000f009f63060000000000fe563442353337353035303030303136303131305e202f5e323430333232"
     "313237393433323930303030303030303030303030303030309f6401029f65020f009f660200fe9f6b135375050000160110d2403221"
     "0000000000000f9f6701029000"),
    ("READ RECORD SFI 2 record 1", "00b2011400",
     "7081a69f420209785f25032203015f24032403315a0853750500001601105f3401009f0702ffc09f080200028c279f02069f0306"
     "9f1a0295055f2a029a039c019f37049f35019f45029f4c089f34039f21039f7c148d0c910a8a0295059f37049f4c088e0e0000000000"
     "00000042031e031f039f0d05b4508400009f0e0500000000009f0f05b4708480005f280202809f4a018257135375050000160110d240"
     "32212794329000000f9000"),
    ("READ RECORD SFI 4 record 1", "00b2012400",
     "7081b89f4701039f4681b03cada902afb40289fbdfea01950c498191442c1b48234dcaff66bca63cbf821a3121fa808e4275a4e894b1"
     "54c1874bddb00f16276e92c73c04468253b373f1e6a9a89e2705b4670682d0adff05617a21d7684031a1cdb438e66cd98d591dc37639"
     "8c8aab4f137a2226122990d9b2b4c72ded6495d637338fefa893ae7fb4eb845f8ec2e260d2385a780f9fda64b3639a9547adad806f78"
     "c9bc9f17f9d4c5b26474b9ba03892a754ffdf24df04c702f869000"),
    ("READ RECORD SFI 4 record 2", "00b2022400",
     "7081e08f01059f3201039224abfd2ebc115c3796e382be7e9863b92c266ccabc8bd014923024c80563234e8a11710a019081b004cc60"
     "769cabe557a9f2d83c7c73f8b177dbf69288e332f151fba10027301bb9a18203ba421bda9c2cc8186b975885523bf6707f287a5e88f0"
     "f6cd79a076319c1404fcdd1f4fa011f7219e1bf74e07b25e781d6af017a9404df9fd805b05b76874663ea88515018b2cb6140dc001a9"
     "98016d28c4af8e49dfcc7d9cee314e72ae0d993b52cae91a5b5c76b0b33e7ac14a7294b59213ca0c50463cfb8b040bb8ac953631b80f"
     "a85a698b00228b5ff442239000"),
]


def as_list(decoded: dict) -> list:
    return [[tag, as_list(value) if isinstance(value, dict) else value] for tag, value in decoded.items()]


def card(name, kernel, path, commit, pan, exchanges):
    responses = []
    for step, command, response in exchanges:
        assert response.endswith("9000"), step
        data = bytes.fromhex(response[:-4])
        decoded = tlv.decode(data, convert=lambda t, v: bytes(v).hex().upper())
        assert tlv.encode(decoded) == data, f"{name} {step}: pyemv does not round-trip"
        responses.append({"step": step, "command": command.upper(), "hex": data.hex().upper(), "pyemv": as_list(decoded)})
    return {"card": name, "kernel": kernel, "source": f"{LOGS}/{path}@{commit}", "pan": pan, "responses": responses}


document = {
    "provenance": (
        "Real card responses from published NFC reader logs of two expired, deactivated debit cards: "
        f"github.com/{LOGS} (fork of AndroidCrypto/Android_HCE_Emulate_A_CreditCard). Written by "
        f"scripts/vectors/tlv_real_cards.py, which checked every response with pyemv {pyemv.__version__} "
        "(decode, re-encode to the same bytes) and stored pyemv's decoding as 'pyemv'."
    ),
    "cards": [
        card("Lloyds Bank Visa Debit", "C-3", "Visa Card APDU Commands and Responses.md",
             "17ab734b10f928f5e6fdde63e13092fa5933538e", "4921828094896752", VISA),
        card("AAB Bank Debit Mastercard", "C-2", "Mastercard APDU Commands and Responses.md",
             "1a1be9bc4f0ec47e1c0768a2f30388e31c754ba1", "5375050000160110", MASTERCARD),
    ],
}
with open("Tests/EMVTests/Vectors/tlv-real-cards.json", "w") as f:
    json.dump(document, f, indent=1)
    f.write("\n")
