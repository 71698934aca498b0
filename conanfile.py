import os
import re

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load

required_conan_version = ">=2.0"


class ToolstreamConan(ConanFile):
    name = "toolstream"
    description = ("Header-only C++20 library that parses streaming LLM output (provider SSE/NDJSON "
                   "streams, tool calls written in the text) into segment events and tool invocations")
    license = "BSL-1.0"
    topics = ("llm", "streaming", "tool-calls", "sse", "json", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    # CMake writes the package config (toolstream-config*.cmake), so the build runs CMake.
    exports_sources = "CMakeLists.txt", "cmake/*", "include/*", "src/*", "LICENSE"
    no_copy_source = True

    def set_version(self):
        # One version: TOOLSTREAM_VERSION_STRING in include/toolstream/version.hpp (CMake reads it too).
        header = load(self, os.path.join(self.recipe_folder, "include", "toolstream", "version.hpp"))
        self.version = re.search(r'^#define TOOLSTREAM_VERSION_STRING "(\d+\.\d+\.\d+)"$', header, re.M).group(1)

    def layout(self):
        cmake_layout(self)

    def requirements(self):
        # Boost.JSON (compiled) and Boost.Describe (inside boost::headers). A header-only library's
        # dependencies are transitive: its public headers include theirs.
        self.requires("boost/[>=1.81 <2]")

    def build_requirements(self):
        self.tool_requires("cmake/[>=3.21 <4]")

    def package_id(self):
        # The same headers serve every configuration.
        self.info.clear()

    def validate(self):
        check_min_cppstd(self, 20)

    def generate(self):
        tc = CMakeToolchain(self)
        tc.cache_variables["TOOLSTREAM_BUILD_TESTS"] = False
        tc.cache_variables["TOOLSTREAM_BUILD_EXAMPLES"] = False
        tc.cache_variables["TOOLSTREAM_BUILD_BENCHMARKS"] = False
        tc.cache_variables["TOOLSTREAM_BUILD_FUZZERS"] = False
        tc.generate()
        CMakeDeps(self).generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        # The headers (toolstream/version.hpp among them) and share/cmake/toolstream; consumers
        # get the config CMakeDeps generates from package_info() below.
        CMake(self).install()

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "toolstream")
        self.cpp_info.set_property("cmake_target_name", "toolstream::toolstream")
        self.cpp_info.requires = ["boost::json", "boost::headers"]
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
