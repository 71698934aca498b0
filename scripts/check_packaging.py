#!/usr/bin/env python3
"""Checks the packaging files without Conan or vcpkg (neither can be installed here).

- include/toolstream/version.hpp holds the version: its defines agree with each other, and
  CMakeLists.txt reads project(VERSION) from it.
- conanfile.py is loaded against a stand-in of the `conan` module that records what the recipe
  declares: its version must come out of version.hpp, and its requirement,
  package type, package_id and CMake names must be the ones the install layout and README promise.
- ports/toolstream/vcpkg.json and the root vcpkg.json must be valid JSON with the fields vcpkg
  requires, the dependencies the port needs and the project version.
- The portfile must fix up the config where CMake installs it.
Prints one line per check; exits 1 on the first failure.
"""
import json
import pathlib
import re
import sys
import types

root = pathlib.Path(__file__).resolve().parent.parent


def fail(message):
    print(f"check_packaging: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


cmakelists = (root / "CMakeLists.txt").read_text()

# --- include/toolstream/version.hpp: the one version -----------------------------------------------
version_header = (root / "include/toolstream/version.hpp").read_text()


def define(name):
    m = re.search(rf"^#define {name} (\S+)$", version_header, re.M)
    check(m, f"version.hpp: no #define {name}")
    return m.group(1)


project_version = define("TOOLSTREAM_VERSION_STRING").strip('"')
check(re.fullmatch(r"\d+\.\d+\.\d+", project_version), f"version.hpp: version string {project_version!r} is not x.y.z")
parts = tuple(define(f"TOOLSTREAM_VERSION_{p}") for p in ("MAJOR", "MINOR", "PATCH"))
check(".".join(parts) == project_version,
      f"version.hpp: MAJOR.MINOR.PATCH {'.'.join(parts)} disagree with the string {project_version}")
# CMake reads the version from the header rather than stating its own.
check(re.search(r"project\(toolstream VERSION \$\{toolstream_version\}", cmakelists)
      and "include/toolstream/version.hpp" in cmakelists,
      "CMakeLists.txt must take project(VERSION) from include/toolstream/version.hpp")
check(not (root / "cmake/version.hpp.in").exists(), "cmake/version.hpp.in is back: version.hpp is a source header")
print(f"version.hpp: {project_version} (MAJOR/MINOR/PATCH agree; CMake reads it)")


# --- conanfile.py, against a recording stand-in of the conan module ---------------------------------
class CppInfo:
    def __init__(self):
        self.properties, self.requires = {}, []
        self.bindirs = self.libdirs = None

    def set_property(self, name, value):
        self.properties[name] = value


class Info:
    cleared = False

    def clear(self):
        self.cleared = True


class ConanFile:
    def __init__(self):
        self.recipe_folder, self.cpp_info, self.info = str(root), CppInfo(), Info()
        self.required, self.tool_required = [], []

    def requires(self, ref):
        self.required.append(ref)

    def tool_requires(self, ref):
        self.tool_required.append(ref)


def module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m


def unused(*args, **kwargs):
    """Stands for the tools that only the methods this check does not call use."""
module("conan", ConanFile=ConanFile)
module("conan.tools")
module("conan.tools.build", check_min_cppstd=unused, can_run=unused)
module("conan.tools.cmake", CMake=unused, CMakeDeps=unused, CMakeToolchain=unused, cmake_layout=unused)
module("conan.tools.files", copy=unused, load=lambda _self, path: pathlib.Path(path).read_text())

namespace = {}
exec(compile((root / "conanfile.py").read_text(), "conanfile.py", "exec"), namespace)
recipes = [v for v in namespace.values() if isinstance(v, type) and issubclass(v, ConanFile) and v is not ConanFile]
check(len(recipes) == 1, "conanfile.py must define one ConanFile")
recipe = recipes[0]()
recipe.set_version()
recipe.requirements()
recipe.package_id()
recipe.package_info()
check(recipe.name == "toolstream" and recipe.license == "BSL-1.0", "conan: name toolstream, license BSL-1.0")
check(recipe.version == project_version, f"conan: set_version() gave {recipe.version}, version.hpp says {project_version}")
check(recipe.package_type == "header-library", "conan: package_type must be header-library")
check(recipe.required == ["boost/[>=1.81 <2]"], f"conan: requires {recipe.required}")
check(recipe.info.cleared, "conan: package_id() must clear the settings")
check(recipe.cpp_info.properties == {"cmake_file_name": "toolstream", "cmake_target_name": "toolstream::toolstream"},
      f"conan: CMake names {recipe.cpp_info.properties}")
check(sorted(recipe.cpp_info.requires) == ["boost::headers", "boost::json"], "conan: components boost::json, boost::headers")
check(recipe.cpp_info.bindirs == [] and recipe.cpp_info.libdirs == [], "conan: no bindirs/libdirs")
for path in ("LICENSE", "test_package/conanfile.py", "test_package/CMakeLists.txt", "test_package/test_package.cpp"):
    check((root / path).is_file(), f"missing {path}")
print(f"conanfile.py: toolstream/{recipe.version}, header-library, requires {recipe.required[0]}")


# --- vcpkg manifests ------------------------------------------------------------------------------------
VERSION_FIELDS = ("version", "version-semver", "version-date", "version-string")


def manifest(path):
    try:
        data = json.loads((root / path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{path}: {e}")
    check(isinstance(data, dict), f"{path}: not a JSON object")
    check(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", data.get("name", "")), f"{path}: bad or missing name")
    versions = [f for f in VERSION_FIELDS if f in data]
    check(len(versions) == 1, f"{path}: exactly one of {VERSION_FIELDS}")
    check(data[versions[0]] == project_version, f"{path}: version {data[versions[0]]}, version.hpp says {project_version}")
    check(isinstance(data.get("description"), str) and data["description"], f"{path}: description")
    check(data.get("license") == "BSL-1.0", f"{path}: license BSL-1.0")
    return data


def dependency_names(deps, host):
    entries = [{"name": d} if isinstance(d, str) else d for d in deps]
    return {e["name"] for e in entries if e.get("host", False) == host}


port = manifest("ports/toolstream/vcpkg.json")
check(dependency_names(port["dependencies"], host=False) == {"boost-json", "boost-describe"},
      "port: dependencies boost-json, boost-describe")
check(dependency_names(port["dependencies"], host=True) == {"vcpkg-cmake", "vcpkg-cmake-config"},
      "port: host dependencies vcpkg-cmake, vcpkg-cmake-config")
portfile = (root / "ports/toolstream/portfile.cmake").read_text()
for needle in ("vcpkg_from_github(", "vcpkg_cmake_configure(", "-DTOOLSTREAM_BUILD_TESTS=OFF",
               "-DTOOLSTREAM_BUILD_EXAMPLES=OFF", "-DTOOLSTREAM_BUILD_BENCHMARKS=OFF", "vcpkg_cmake_install()",
               "vcpkg_cmake_config_fixup(CONFIG_PATH share/cmake/toolstream)", "vcpkg_install_copyright(", "usage"):
    check(needle in portfile, f"portfile.cmake lacks {needle}")
check("${CMAKE_INSTALL_DATADIR}/cmake/toolstream" in cmakelists, "CMake no longer installs to share/cmake/toolstream")
check((root / "ports/toolstream/usage").is_file(), "missing ports/toolstream/usage")
print(f"ports/toolstream: {port['name']} {project_version}, config fixed up from share/cmake/toolstream")

developer = manifest("vcpkg.json")
check(dependency_names(developer["dependencies"], host=False) == {"boost-json", "boost-describe"},
      "vcpkg.json: dependencies boost-json, boost-describe")
features = developer.get("features", {})
for feature, dependency in (("tests", "catch2"), ("benchmarks", "benchmark")):
    check(feature in features and features[feature].get("description"), f"vcpkg.json: feature {feature} with a description")
    check(dependency in dependency_names(features[feature].get("dependencies", []), host=False),
          f"vcpkg.json: feature {feature} depends on {dependency}")
print("vcpkg.json: features tests (catch2), benchmarks (benchmark)")
print("check_packaging: ok")
